"""The printable play kit: true-scale boards with the corner markers, and the tokens the camera reads.

`geometry` says where everything is in board millimetres (the reader and the generator use the
same numbers), `tokens` says what each printed chip carries, `draw` paints boards and tokens at
any scale, and `pages` lays them out on A4 or Letter at 300 dpi as PNG pages or one PDF.
"""

"""The tracks of the stones that moved through one episode.

Moving things are found against a background in which only the unmoved stones remain (the
stones that moved are painted out with the board from after the episode), so a stone in flight
is a blob wherever it goes; blobs are associated to tracks by a global nearest assignment on
predicted positions and colours; a blob of touching stones is shared out between them; frames
where a stone is blurred into the hand or into another stone are interpolated and marked unseen.
A part of the episode tracker (vision/tracking.py).

Where each part lives: `linking` (`Following`: movers linked from their place to where they came
to rest, the rest of the episode's bookkeeping), `follow` (a stone followed frame by frame),
`background` (the scene it is followed against), `losses` (where a stone not found at rest went),
`sightings` (a track's sightings read as a whole).
"""

from vision.tracks.linking import Following

__all__ = ["Following"]

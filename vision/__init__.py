"""Computer vision for the table: calibration, stone tracking, the Rocca judge, synthetic scenes.

Imports numpy and cv2 only; never an engine, a device or the referee.
"""

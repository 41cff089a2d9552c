"""Hardware adapters: buttons, serial panels, keyboard, displays, cameras, buzzer.

Hardware libraries that only exist on a Pi (picamera2) are imported lazily, when used.
"""

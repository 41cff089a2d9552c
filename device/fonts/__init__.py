"""Bundled display fonts (package data; see LICENSE.misc-fixed)."""

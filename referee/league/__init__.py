"""A league of many tables: each table's referee reports to an MQTT broker, and the room
(``tabletop room``) keeps the night's standings from what the tables report.

Topics (every payload is a JSON object; docs/league.md has the fields):

- ``league/<table>/status``: retained, the table's live state (game, players, turn, scores).
- ``league/<table>/online``: retained, ``1`` while the table is connected; the broker sends ``0``
  as the table's last will when it drops off.
- ``league/<table>/action``: every accepted action (and undo) with the words the table was told.
- ``league/<table>/result/<game>``: retained, each finished game: its result and its record (the
  broker keeps every result, so a room that starts late or lost its file gets them all).
- ``league/room/resend``: the room asks every table to send again the results it finished since
  a time (a room whose database was lost, or a broker restarted without its memory).
- ``league/room/standings``: retained, the room's standings (what ``tabletop league standings``
  reads).

A message is identified by (table, game, seq), so one that arrives twice (a resend after a lost
acknowledgement) is counted once. The table's journal is its outbox: what the broker has not
acknowledged is sent again from the journal, even after a power cut.
"""

"""One paho-mqtt client made the same way for the table, the room and ``tabletop league``: MQTT 5
(the broker says why it refuses a publish), credentials and TLS from the config, and automatic
reconnection with a short back-off, so a broker restarted mid-night is found again in seconds."""

from __future__ import annotations

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from .config import Broker, Credentials

QOS = 1
"""At least once: the broker acknowledges; duplicates are dropped by the receiver's keys."""
RECONNECT_SECONDS = (0.5, 4)
"""The first and the longest wait between two attempts to reach a lost broker."""
KEEPALIVE_SECONDS = 15
"""Silence after which the broker and the client each take the other for gone."""


def make_client(client_id: str, broker: Broker,
                credentials: Credentials | None = None) -> mqtt.Client:
    """A client for ``broker`` (not connected yet); ``mqtts://`` without a CA file trusts the
    system's certificate authorities."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5)
    credentials = credentials or Credentials()
    if credentials.username is not None:
        client.username_pw_set(credentials.username, credentials.password)
    if broker.tls:
        client.tls_set(ca_certs=credentials.ca_file, certfile=credentials.cert_file,
                       keyfile=credentials.key_file)
    client.reconnect_delay_set(*RECONNECT_SECONDS)
    return client


def start(client: mqtt.Client, broker: Broker, keep_session_seconds: int = 0) -> None:
    """Connect in the background (the caller goes on even with no broker in reach) and keep
    reconnecting whenever the connection drops. ``keep_session_seconds``: how long the broker
    keeps this client's subscriptions and queues its messages while it is away (0: not at all)."""
    properties = None
    if keep_session_seconds:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = keep_session_seconds
    client.connect_async(broker.host, broker.port, KEEPALIVE_SECONDS,
                         clean_start=not keep_session_seconds, properties=properties)
    client.loop_start()


def stop(client: mqtt.Client) -> None:
    client.disconnect()
    client.loop_stop()

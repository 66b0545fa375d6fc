"""kcompat: keep Kafka-style message protocols compatible, and show the bytes."""

__version__ = "0.1.0"

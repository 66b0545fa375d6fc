"""Evolution (diff) rules; importing this package registers them all."""

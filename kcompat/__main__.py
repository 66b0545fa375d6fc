"""``python -m kcompat``."""

from kcompat.cli import run

if __name__ == "__main__":
    run()

"""Ceilings on the user's own options: a number that would make a run endless is one
line at the start, not a run that never ends.

The proof's ``--samples`` (``diff``, ``history``, and the Action's ``args``) multiplies
every message version's work: the default 20 (6 already confirm every break of Kafka's
history) takes a second on a small repository, 20,000 took 15 s there, and 99,999,999,999
would never end. A corpus stores its samples, so it may hold more of them.
"""

from __future__ import annotations

#: The most samples per message version the round-trip proof takes (50 times the default).
MAX_SAMPLES = 1000
#: The most samples per message version ``corpus build`` writes (100 times its default).
MAX_CORPUS_SAMPLES = 10_000

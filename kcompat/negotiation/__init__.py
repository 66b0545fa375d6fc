"""How a client and a broker pick a version: the APIs a release offers, their negotiation,
and which client releases a broker's ranges strand (pure: ranges in, answers out)."""

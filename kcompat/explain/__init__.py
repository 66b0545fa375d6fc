"""``kcompat explain``: one message across its versions, for reviewers.

A pure core turns a :class:`~kcompat.spec.model.Message` into data (:mod:`.matrix` for the
version matrix, :mod:`.timeline` for per-field phrases, :mod:`.grammar` for one version's
wire layout, :mod:`.changes` to compare two matrices); renderers turn that data into
text, markdown or JSON; :mod:`.find` locates the message among spec files or at a git
revision. Nothing here imports rich or git until a renderer or a revision needs it, so
explaining one message from a cold process stays fast.
"""

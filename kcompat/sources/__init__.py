"""Where spec texts come from: files and directories, git revisions, the index."""

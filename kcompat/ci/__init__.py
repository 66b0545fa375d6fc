"""CI integrations: the steps of the GitHub Action in ``action.yml``."""

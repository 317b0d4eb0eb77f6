"""The answers every front end shows: the live store, the indexes built from it, and the
lookups and moderator changes the CLI and the Discord adapter call."""

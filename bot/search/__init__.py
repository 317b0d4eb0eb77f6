"""Finding the ruling a query means: the in-memory name index, typos, prefixes and full text,
with a "confident" verdict."""

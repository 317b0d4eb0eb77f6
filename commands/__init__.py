"""The thin Discord adapter: parse an interaction, call the core (``bot``), render."""

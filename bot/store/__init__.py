"""The SQLite store built from the YAML: its schema, its build, the moderators' change log
replayed onto every rebuild, the bot's own state file, and the export back to YAML."""

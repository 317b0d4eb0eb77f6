"""Documents in, reviewable YAML out: the parsers (one per document shape), the importer that
turns parsed entries into topics, links and card mentions, the card lists, and the YAML
data set (``rulings_data/``) they write and the store reads."""

"""Harvesting search forms: queries, pagination to the end, records."""

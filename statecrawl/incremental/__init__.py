"""Incremental crawls: a recrawl, its baseline, chains, compaction and comparison."""

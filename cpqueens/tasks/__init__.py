"""What a verb does: count, decide, find; each chooses a strategy and an engine."""

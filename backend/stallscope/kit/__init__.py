"""Small shared building blocks with no knowledge of features."""

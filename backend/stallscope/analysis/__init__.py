"""Pure analysis: stored records in, results out; no database, no HTTP."""

"""Who is asking and what they may do: accounts, sessions, tokens, guest links, permissions."""

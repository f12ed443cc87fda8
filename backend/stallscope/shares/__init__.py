"""Short links to saved views, and the redirect that opens them."""

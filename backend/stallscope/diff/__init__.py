"""Differential flame graphs: B against A, computed on the server from stored stacks."""

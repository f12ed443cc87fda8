"""Interop exports: a flame-graph view as pprof or speedscope, a timeline selection as a Chrome trace.

The encoders are pure (`view` in, bytes or a JSON-ready dict out) so that the HTTP routes and the
escalation bundle make the same files: `view.from_tree` / `view.from_folded` give the stacks,
`pprof.encode_pprof`, `speedscope.encode_speedscope` and `chrome_trace.chrome_trace` write them,
and `pprof_strings.rewrite_strings` redacts a finished pprof profile.
"""

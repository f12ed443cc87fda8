# Documented entry points; each is a thin wrapper over scripts/.
.PHONY: run test e2e bench

run:   ## install what is missing and start the console at http://127.0.0.1:8000
	scripts/run

test:  ## install what is missing and run every check and test (what CI runs)
	scripts/test

e2e:   ## only the browser end-to-end test
	scripts/e2e

bench: ## parser, ingest and query benchmarks (prints figures; takes several minutes)
	.venv/bin/python bench/ingest_and_query.py

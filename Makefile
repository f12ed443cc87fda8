# Documented entry points; each is a thin wrapper over a script (scripts/, bench/, collectors/).
.PHONY: run test e2e bench collector

run:   ## install what is missing and start the console at http://127.0.0.1:8000
	scripts/run

test:  ## install what is missing and run every check and test (what CI runs)
	scripts/test

e2e:   ## only the browser end-to-end test
	scripts/e2e

bench: ## parser, ingest and query benchmarks (prints figures; takes several minutes)
	.venv/bin/python bench/ingest_and_query.py

collector: ## build collectors/dist/stallscope-collect.pyz, the collector as the one file to copy to a host
	python3 collectors/build_zipapp.py

pytest_plugins = [
    "tests.fixtures.db",
    "tests.fixtures.worker",
    "tests.fixtures.corpus",
    "tests.fixtures.http_console",
    "tests.fixtures.oidc_provider",
]

pytest_plugins = [
    "tests.fixtures.db",
    "tests.fixtures.worker",
    "tests.fixtures.corpus",
    "tests.fixtures.http_console",
    "tests.fixtures.oidc_provider",
    "tests.fixtures.object_store",
    "tests.fixtures.redis_server",
]

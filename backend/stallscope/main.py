"""The FastAPI application: API routers, error mapping, and the built front end."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from stallscope import __version__
from stallscope.annotations.router import router as annotations_router
from stallscope.auth.admin_router import router as admin_router
from stallscope.auth.declared import undeclared_routes
from stallscope.auth.guest_router import router as guest_router
from stallscope.auth.oidc_router import router as oidc_router
from stallscope.auth.router import router as auth_router
from stallscope.bundle.router import router as bundle_router
from stallscope.captures.router import router as captures_router
from stallscope.config import get_settings
from stallscope.diff.router import router as diff_router
from stallscope.events.router import router as events_router
from stallscope.exposition.router import ScraperPath
from stallscope.exposition.router import router as exposition_router
from stallscope.findings.router import router as findings_router
from stallscope.flame.router import router as flame_router
from stallscope.frontend_dist import frontend_dist
from stallscope.health.router import router as health_router
from stallscope.heatmap.router import router as heatmap_router
from stallscope.incidents.router import router as incidents_router
from stallscope.interop.router import router as interop_router
from stallscope.kit.browser_guard import BrowserGuard
from stallscope.kit.error_answers import add_error_answers
from stallscope.kit.errors import ServiceError
from stallscope.kit.malloc import return_large_buffers
from stallscope.kit.parameter_guard import ParameterGuard
from stallscope.kit.server_timing import ServerTiming
from stallscope.lifecycle.router import router as lifecycle_router
from stallscope.metrics.router import router as metrics_router
from stallscope.postmortem.router import router as postmortem_router
from stallscope.shares.router import router as shares_router
from stallscope.snapshots.router import router as snapshots_router
from stallscope.threads.router import router as threads_router
from stallscope.timeline.router import router as timeline_router
from stallscope.tokens.router import router as tokens_router
from stallscope.watch.router import router as watch_router


def _mount_frontend(app: FastAPI, dist: Path) -> None:
    """Serve the single-page app; unknown non-API paths get index.html so deep links work."""
    index = dist / "index.html"
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False)
    def spa(path: str) -> Response:
        if path.startswith("api/"):
            return JSONResponse({"detail": f"no API route /{path}"}, status_code=404)
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(dist.resolve()):
            return FileResponse(candidate)
        if index.is_file():
            return FileResponse(index)
        return JSONResponse(
            {"detail": "the front end is not built; run `npm run build` in frontend/"}, status_code=503
        )


def create_app() -> FastAPI:
    return_large_buffers()  # views allocate large short-lived buffers (kit/malloc.py)
    app = FastAPI(
        title="Stallscope",
        version=__version__,
        description="Latency and performance incident console: captures in, flame graphs out.",
    )

    @app.exception_handler(ServiceError)
    async def service_error(_: Request, exc: ServiceError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s is not None else None
        return JSONResponse({"detail": str(exc)}, status_code=exc.status_code, headers=headers)

    add_error_answers(app)
    app.include_router(health_router)
    app.include_router(auth_router)
    app.include_router(admin_router)
    app.include_router(guest_router)
    app.include_router(oidc_router)
    app.include_router(incidents_router)
    app.include_router(captures_router)
    app.include_router(flame_router)
    app.include_router(tokens_router)
    app.include_router(events_router)
    app.include_router(metrics_router)
    app.include_router(timeline_router)
    app.include_router(annotations_router)
    app.include_router(diff_router)
    app.include_router(threads_router)
    app.include_router(heatmap_router)
    app.include_router(shares_router)
    app.include_router(snapshots_router)
    app.include_router(findings_router)
    app.include_router(lifecycle_router)
    app.include_router(bundle_router)
    app.include_router(interop_router)
    app.include_router(postmortem_router)
    app.include_router(watch_router)
    app.include_router(exposition_router)
    forgotten = undeclared_routes(app.openapi())
    if forgotten:
        raise RuntimeError(f"API routes without a permission (see auth/guard.py): {', '.join(forgotten)}")
    _mount_frontend(app, frontend_dist())
    app.add_middleware(ParameterGuard)
    app.add_middleware(BrowserGuard, allowed_hosts=get_settings().allowed_host_names)
    app.add_middleware(ScraperPath)
    app.add_middleware(ServerTiming)  # outermost: the whole of the console's time
    return app

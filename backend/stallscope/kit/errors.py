"""Errors services raise and the API turns into status codes, so services never import FastAPI."""

from __future__ import annotations


class ServiceError(Exception):
    status_code = 400
    retry_after_s: int | None = None
    """When set, the answer's Retry-After: the caller may try again that many seconds later."""


class Unauthorized(ServiceError):
    status_code = 401


class Forbidden(ServiceError):
    status_code = 403


class TooManyRequests(ServiceError):
    status_code = 429

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class NotFound(ServiceError):
    status_code = 404


class Invalid(ServiceError):
    status_code = 422


class TooLarge(ServiceError):
    status_code = 413


class Unavailable(ServiceError):
    """Something the request needs is missing on this server (not the caller's fault)."""

    status_code = 503

    def __init__(self, message: str, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s

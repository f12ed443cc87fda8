"""Errors services raise and the API turns into status codes, so services never import FastAPI."""

from __future__ import annotations


class ServiceError(Exception):
    status_code = 400


class Unauthorized(ServiceError):
    status_code = 401


class NotFound(ServiceError):
    status_code = 404


class Invalid(ServiceError):
    status_code = 422


class TooLarge(ServiceError):
    status_code = 413

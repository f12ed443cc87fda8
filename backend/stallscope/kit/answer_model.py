"""The base of the API's answers, so the OpenAPI schema says which fields an answer always has."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class AnswerModel(BaseModel):
    """A response body. Every field is always sent, a field with a default too; by default pydantic's
    schema of a model lists only the fields without a default as required, and the front end's
    generated types would then make the others optional (`?`) for no reason. Request bodies stay
    plain `BaseModel`s: there a default does mean the field may be left out."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

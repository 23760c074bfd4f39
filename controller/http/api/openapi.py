"""The OpenAPI 3.1 document of `/api/v1/`, generated from the routes' own pydantic models, so
the document and the checks a call meets cannot drift apart."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from controller.http.api.framework import PREFIX, ErrorBody, Route
from controller.http.middleware import KEY_HEADER

DESCRIPTION = ("Feeds from the venue's systems (docs/slots-feed.md) and the member-app API for "
               "the venue's app backend (docs/member-api.md). Every key belongs to a machine "
               "or a backend, never to a browser.")

SCHEMES = {
    "deviceKey": {"type": "apiKey", "in": "header", "name": KEY_HEADER,
                  "description": "A device's key (a slot bank's feed), issued by a technician."},
    "appKey": {"type": "apiKey", "in": "header", "name": KEY_HEADER,
               "description": "The venue's member-app backend key (role app), held by the "
                              "backend and never sent to a browser or a phone."},
}


def _parameters(route: Route) -> list[dict[str, Any]]:
    """The path parameters, with their model's schema (a card's pattern and length)."""
    fields = route.params.model_json_schema()["properties"] if route.params else {}
    return [{"name": name, "in": "path", "required": True,
             "schema": fields.get(name, {"type": "string"})}
            for name in re.findall(r"{(\w+)}", route.path)]


def openapi_document(routes: list[Route], version: str) -> dict[str, Any]:
    models: list[type[BaseModel]] = [ErrorBody]
    for route in routes:
        models += [m for m in (route.body, route.response) if m is not None]
    unique = list(dict.fromkeys(models))
    refs, schemas = models_json_schema([(m, "validation") for m in unique],
                                       ref_template="#/components/schemas/{model}")
    ref = {m: refs[(m, "validation")] for m in unique}
    error = {"content": {"application/json": {"schema": ref[ErrorBody]}}}
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        operation: dict[str, Any] = {
            "summary": route.summary,
            "operationId": route.operation_id,
            "parameters": _parameters(route),
            "responses": {"200": {"description": "Done.", "content": {
                "application/json": {"schema": ref[route.response]}}},
                **{str(s): {**error, "description": text} for s, text in route.errors.items()}},
        }
        if route.body is not None:
            operation["requestBody"] = {"required": route.body_required, "content": {
                "application/json": {"schema": ref[route.body]}}}
        operation["security"] = [{route.security: []}] if route.auth else []
        paths.setdefault(PREFIX + route.path, {})[route.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "Showrunner controller API", "version": version,
                 "description": DESCRIPTION},
        "paths": paths,
        "components": {"schemas": schemas.get("$defs", {}), "securitySchemes": SCHEMES},
    }

"""The OpenAPI 3.1 document of `/api/v1/`, generated from the routes' own pydantic models, so
the document and the checks a call meets cannot drift apart."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from controller.http.api.framework import PREFIX, ErrorBody, Route
from controller.http.middleware import KEY_HEADER

ERROR_SENTENCES = {
    400: "Malformed: not JSON, a field wrong, a machine not in the heat.",
    401: "No key, or an unknown or revoked one.",
    403: "The key may not report for this bank.",
    404: "No such heat on this bank.",
    409: "The show's state refuses it (a heat already live, already ended...).",
    413: "The body is larger than 64 KiB.",
    429: "Too many wrong keys from this address.",
}


def openapi_document(routes: list[Route], version: str) -> dict[str, Any]:
    models: list[type[BaseModel]] = [ErrorBody]
    for route in routes:
        models += [m for m in (route.body, route.response) if m is not None]
    unique = list(dict.fromkeys(models))
    refs, schemas = models_json_schema([(m, "validation") for m in unique],
                                       ref_template="#/components/schemas/{model}")
    ref = {m: refs[(m, "validation")] for m in unique}
    error = {"description": "", "content": {"application/json": {"schema": ref[ErrorBody]}}}
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        operation: dict[str, Any] = {
            "summary": route.summary,
            "operationId": route.operation_id,
            "parameters": [{"name": name, "in": "path", "required": True,
                            "schema": {"type": "string"}}
                           for name in re.findall(r"{(\w+)}", route.path)],
            "responses": {"200": {"description": "Done.", "content": {
                "application/json": {"schema": ref[route.response]}}},
                **{str(s): {**error, "description": ERROR_SENTENCES[s]} for s in route.errors}},
        }
        if route.body is not None:
            operation["requestBody"] = {"required": True, "content": {
                "application/json": {"schema": ref[route.body]}}}
        operation["security"] = [{"deviceKey": []}] if route.auth else []
        paths.setdefault(PREFIX + route.path, {})[route.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "Showrunner controller API", "version": version,
                 "description": "Feeds from the venue's systems (docs/slots-feed.md)."},
        "paths": paths,
        "components": {
            "schemas": schemas.get("$defs", {}),
            "securitySchemes": {"deviceKey": {"type": "apiKey", "in": "header",
                                              "name": KEY_HEADER}},
        },
    }

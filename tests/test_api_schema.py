"""/api/schema/ as an independent validator and a generated client read it: OpenAPI 3.1
(a nullable field beside oneOf/allOf reads as nullable), the query parameters the views
read, the error shape they answer, the 429 a first visit can get, and the licence."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = Path(__file__).resolve().parents[1]

# The fields a client must read as "may be null" whose schema is a $ref or an allOf: under
# 3.0.3 their "nullable: true" sat beside the $ref, where 3.0 says it means nothing.
NULLABLE_BESIDE_A_REF = [
    ("ArchiveDayOut", "mine"),
    ("DailyDealOut", "difficulty"),
    ("HintOut", "difficulty"),
    ("HintOut", "medal"),
    ("HintOut", "hint"),
    ("LeaderboardEntryOut", "medal"),
    ("LeaderboardOut", "me"),
    ("SessionOut", "difficulty"),
    ("SessionOut", "medal"),
]


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    from django.test import Client

    with django_db_blocker.unblock():
        r = Client().get("/api/schema/?format=json")
    assert r.status_code == 200
    return json.loads(r.content)


def _accepts(schema: dict, pointer: str, value: object) -> bool:
    registry = Registry().with_resource(
        "urn:api", Resource(contents=schema, specification=DRAFT202012)
    )
    validator = Draft202012Validator({"$ref": f"urn:api#{pointer}"}, registry=registry)
    return validator.is_valid(value)


def test_the_document_is_valid_openapi_3_1(schema):
    assert schema["openapi"].startswith("3.1.")
    validate(schema)  # openapi-spec-validator, against the 3.1 specification
    assert "nullable" not in json.dumps(schema)  # 3.0's keyword, meaningless in 3.1


@pytest.mark.parametrize(("component", "field"), NULLABLE_BESIDE_A_REF)
def test_nullable_fields_beside_a_ref_accept_null(schema, component, field):
    pointer = f"/components/schemas/{component}/properties/{field}"
    assert _accepts(schema, pointer, None), schema["components"]["schemas"][component]
    assert not _accepts(schema, pointer, 12345.5)  # null, not anything


def test_the_query_parameters_the_views_read_are_declared(schema):
    def query(path: str) -> dict:
        return {
            p["name"]: p["schema"]
            for p in schema["paths"][path]["get"]["parameters"]
            if p["in"] == "query"
        }

    board = query("/api/leaderboards/{game}/{date}/")
    assert board["offset"]["type"] == board["limit"]["type"] == "integer"
    assert (board["offset"]["minimum"], board["limit"]["minimum"], board["limit"]["maximum"]) == (
        0,
        1,
        100,
    )
    assert query("/api/archive/{game}/")["month"]["pattern"] == r"^\d{4}-\d{2}$"


def test_the_error_shape_names_the_request_id(schema):
    assert "request_id" in schema["components"]["schemas"]["ErrorOut"]["properties"]


def test_a_first_visit_can_be_rate_limited_and_the_schema_says_so(schema):
    me = schema["paths"]["/api/me/"]["get"]["responses"]
    assert "429" in me
    assert "Retry-After" in me["429"]["headers"]
    # A view that makes no guest and has no limit of its own documents none.
    assert "429" not in schema["paths"]["/api/daily/"]["get"]["responses"]
    for path in ("/api/sessions/", "/api/auth/signup/", "/api/auth/signin/"):
        assert "429" in schema["paths"][path]["post"]["responses"], path


def test_the_licence_is_declared_in_the_schema_the_package_and_a_file(schema):
    assert schema["info"]["license"] == {"name": "MIT", "identifier": "MIT"}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


@pytest.mark.django_db
def test_a_rate_limited_first_visit_gets_the_documented_429(client, settings):
    import secrets

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "guests": (1, 60)}
    address = f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"  # a fresh count
    first = client.get("/api/me/", REMOTE_ADDR=address)
    assert first.status_code == 200
    from django.test import Client

    again = Client().get("/api/me/", REMOTE_ADDR=address)
    assert again.status_code == 429
    assert int(again["Retry-After"]) >= 1
    assert {"error", "reason", "request_id"} <= set(again.json())


@pytest.mark.django_db
def test_an_empty_month_is_refused_as_its_pattern_says(client):
    assert client.get("/api/archive/klondike/?month=").status_code == 400
    assert client.get("/api/archive/klondike/").status_code == 200  # none: this month

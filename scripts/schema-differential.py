#!/usr/bin/env python3
"""The oracle for the bridge's schema validator: Python's jsonschema (draft 2020-12).

    scripts/schema-differential.py CORPUS
        Reads a corpus [{"schema": S, "instances": [I, ...], "note"?: "...", "at"?: P}, ...] and
        prints, as JSON on stdout, one list of verdicts per schema: [[true, false, ...], ...].
        With "at", S is a document that holds the schema at the JSON Pointer P, as a contract
        holds an action's params at /actions/NAME/params, and the schema's $refs resolve against
        that document. Formats are annotations only, as the Swift validator treats them by
        default. `pattern` and `patternProperties` are ECMA-262 regular expressions, searched
        with regress (Rust's ECMA-262 engine), as JSON Schema says and the Swift validator does. Every
        schema is first checked against the draft 2020-12 metaschema, so a malformed corpus entry
        fails loudly here rather than as a disagreement in Swift.

    scripts/schema-differential.py --regenerate CORPUS
        Replaces the corpus entries marked "generated": true with a fresh, seeded set (the same
        every time) and rewrites the file; handwritten entries are kept as they are.

Tests/BridgeTests/SchemaDifferentialTests.swift runs the first form and compares verdicts.
Exit codes: 0 ok, 1 bad corpus, 2 jsonschema missing or bad usage.
"""

import json
import random
import sys
import urllib.parse

try:
    import jsonschema
    import regress
    from jsonschema import validators
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError:
    sys.stderr.write(
        "schema-differential: Python's jsonschema or regress is not importable; run scripts/install-deps "
        "(or: python3 -m pip install 'jsonschema>=4.18' regress)\n"
    )
    sys.exit(2)


def ecma_search(pattern, text):
    """An unanchored ECMA-262 search with the u flag (Python's re is not ECMA-262: its \\d and \\w are
    Unicode and its $ matches before a final newline)."""
    return regress.Regex(pattern, "u").find(text) is not None


def ecma_pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not ecma_search(pattern, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def ecma_pattern_properties(validator, pattern_properties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pattern_properties.items():
        for name, value in instance.items():
            if ecma_search(pattern, name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


# The metaschema check, with format "regex" meaning ECMA-262 too.
META_FORMATS = jsonschema.FormatChecker()
META_FORMATS.checks("regex", raises=regress.RegressError)(lambda pattern: bool(regress.Regex(pattern, "u")))


def check_schema(schema):
    metaschema = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA, format_checker=META_FORMATS)
    for error in metaschema.iter_errors(schema):
        raise jsonschema.SchemaError.create_from(error)


# Draft 2020-12 with ECMA-262 patterns; everything else is jsonschema's own.
Validator = validators.extend(
    jsonschema.Draft202012Validator,
    {"pattern": ecma_pattern, "patternProperties": ecma_pattern_properties},
)

# Doubles hold every integer up to 2**53 exactly; past that Python's exact ints and Swift's
# Doubles would compare differently, which is a property of the corpus, not of the validator.
EXACT_INTEGER_LIMIT = 2**53


def check_numbers(value, where):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) > EXACT_INTEGER_LIMIT:
            raise ValueError(f"{where}: integer {value} does not fit a double exactly")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{where}: {value} is not a JSON number")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_numbers(item, f"{where}/{i}")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_numbers(item, f"{where}/{key}")


# The name the document of an entry with "at" is registered under, for its $refs to resolve in.
DOCUMENT_URI = "urn:hybridhost:document"


def resolve_pointer(document, pointer):
    value = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def validator_for(entry):
    schema = entry["schema"]
    if "at" not in entry:
        check_schema(schema)
        return Validator(schema)
    check_schema(resolve_pointer(schema, entry["at"]))
    registry = Registry().with_resource(DOCUMENT_URI, Resource(contents=schema, specification=DRAFT202012))
    reference = DOCUMENT_URI + "#" + urllib.parse.quote(entry["at"], safe="/~")
    return Validator({"$ref": reference}, registry=registry)


def verdicts(corpus):
    results = []
    for n, entry in enumerate(corpus):
        schema = entry["schema"]
        check_numbers(schema, f"corpus[{n}].schema")
        validator = validator_for(entry)
        row = []
        for i, instance in enumerate(entry["instances"]):
            check_numbers(instance, f"corpus[{n}].instances[{i}]")
            row.append(validator.is_valid(instance))
        results.append(row)
    return results


# --- The seeded generator -------------------------------------------------------------------

SEED = 20251121
GENERATED_SCHEMAS = 80
INSTANCES_PER_SCHEMA = 10

WORDS = ["a", "b", "id", "name", "title", "tags", "x", "value", "n", "é", "日本", "k/1", "t~0"]
STRINGS = ["", "a", "abc", "Zed", "hello world", "é", "e\u0301", "日本語", "👍", "👍🏽", "a1", "42",
           "xyz-9", "  ", "null"]
NUMBERS = [0, 1, -1, 2, 3, 7, 10, 100, -0.0, 1.0, 1.5, -2.5, 0.1, 1e300, -1e300, 2.0, 99.99]
PATTERNS = ["^[a-z]+$", "^[A-Z]", "[0-9]", "^$", "^.{2,3}$", "^(a|b)+$", "\\d{2}", "^\\w+$",
            "^[^0-9]*$", "é", "\\bna", "^\\S+$", "^\\p{L}+$", "\\u00e9", "^[\\s\\d]*$"]
TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"]


def random_schema(rng, depth):
    if depth <= 0 or rng.random() < 0.2:
        return rng.choice([True, False, {}, {"type": rng.choice(TYPES)}, leaf_schema(rng)])
    kind = rng.choice(["object", "array", "combinator", "leaf", "object", "leaf"])
    if kind == "leaf":
        return leaf_schema(rng)
    if kind == "object":
        names = rng.sample(WORDS, rng.randint(1, 4))
        schema = {"type": "object", "properties": {n: random_schema(rng, depth - 1) for n in names}}
        if rng.random() < 0.6:
            schema["required"] = rng.sample(names, rng.randint(1, len(names)))
        roll = rng.random()
        if roll < 0.25:
            schema["additionalProperties"] = False
        elif roll < 0.4:
            schema["additionalProperties"] = random_schema(rng, depth - 1)
        elif roll < 0.6:
            # unevaluatedProperties sees through allOf, anyOf, oneOf, if/then/else and $ref.
            schema["unevaluatedProperties"] = rng.choice([False, random_schema(rng, depth - 1)])
            extra = rng.sample(WORDS, 2)
            applied = {"properties": {extra[0]: random_schema(rng, depth - 1)}}
            schema[rng.choice(["allOf", "anyOf", "oneOf"])] = [applied, {"properties": {extra[1]: True}}]
            if rng.random() < 0.5:
                schema["if"] = {"required": [extra[0]]}
                schema["then"] = {"properties": {extra[1]: {"type": "string"}}}
                schema["else"] = {"properties": {rng.choice(WORDS): True}}
        if rng.random() < 0.3:
            schema["patternProperties"] = {rng.choice(PATTERNS): random_schema(rng, depth - 1)}
        if rng.random() < 0.2:
            schema["propertyNames"] = rng.choice([{"maxLength": 3}, {"pattern": rng.choice(PATTERNS)}, {"enum": WORDS[:5]}])
        if rng.random() < 0.2:
            schema["minProperties"] = rng.randint(0, 2)
        if rng.random() < 0.2:
            schema["maxProperties"] = rng.randint(1, 3)
        if rng.random() < 0.2:
            schema["dependentRequired"] = {rng.choice(WORDS): rng.sample(WORDS, rng.randint(1, 2))}
        if rng.random() < 0.2:
            schema["dependentSchemas"] = {rng.choice(WORDS): random_schema(rng, depth - 1)}
        return schema
    if kind == "array":
        schema = {"type": "array"}
        if rng.random() < 0.4:
            schema["prefixItems"] = [random_schema(rng, depth - 1) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.5:
                schema["items"] = False
        else:
            schema["items"] = random_schema(rng, depth - 1)
        if rng.random() < 0.3:
            schema["minItems"] = rng.randint(0, 2)
        if rng.random() < 0.3:
            schema["maxItems"] = rng.randint(1, 4)
        if rng.random() < 0.25:
            schema["uniqueItems"] = rng.choice([True, False])
        if rng.random() < 0.3:
            schema["contains"] = random_schema(rng, depth - 1)
            if rng.random() < 0.5:
                schema["minContains"] = rng.randint(0, 2)
            if rng.random() < 0.5:
                schema["maxContains"] = rng.randint(1, 3)
        if rng.random() < 0.25 and "items" not in schema:
            schema["unevaluatedItems"] = rng.choice([False, random_schema(rng, depth - 1)])
        return schema
    keyword = rng.choice(["anyOf", "oneOf", "allOf", "not", "if"])
    if keyword == "not":
        return {"not": random_schema(rng, depth - 1)}
    if keyword == "if":
        schema = {"if": random_schema(rng, depth - 1), "then": random_schema(rng, depth - 1)}
        if rng.random() < 0.6:
            schema["else"] = random_schema(rng, depth - 1)
        return schema
    return {keyword: [random_schema(rng, depth - 1) for _ in range(rng.randint(1, 3))]}


def leaf_schema(rng):
    kind = rng.choice(["string", "number", "integer", "enum", "const", "types"])
    if kind == "string":
        schema = {"type": "string"}
        if rng.random() < 0.5:
            schema["minLength"] = rng.randint(0, 3)
        if rng.random() < 0.5:
            schema["maxLength"] = rng.randint(1, 5)
        if rng.random() < 0.4:
            schema["pattern"] = rng.choice(PATTERNS)
        return schema
    if kind in ("number", "integer"):
        schema = {"type": kind}
        for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if rng.random() < 0.3:
                schema[bound] = rng.choice([0, 1, 2.5, -1, 10, 1.0])
        if rng.random() < 0.3:
            # Divisors whose quotients are exact in binary, so that the verdicts cannot hinge on rounding.
            schema["multipleOf"] = rng.choice([2, 0.5, 3, 2.5, 0.25])
        return schema
    if kind == "enum":
        return {"enum": rng.sample(STRINGS + NUMBERS[:6] + [None, True, False, [1], {"a": 1}], rng.randint(1, 4))}
    if kind == "const":
        return {"const": rng.choice(STRINGS + NUMBERS + [None, True, [1, "a"], {"a": [1]}])}
    return {"type": rng.sample(TYPES, rng.randint(1, 3))}


def random_instance(rng, depth):
    roll = rng.random()
    if depth <= 0 or roll < 0.45:
        return rng.choice([None, True, False, rng.choice(STRINGS), rng.choice(NUMBERS), rng.choice(NUMBERS)])
    if roll < 0.7:
        return [random_instance(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    return {n: random_instance(rng, depth - 1) for n in rng.sample(WORDS, rng.randint(0, 4))}


def conforming_instance(rng, schema, depth):
    """An instance built to fit most of `schema`, so the corpus has valid pairs too."""
    if schema is True or schema == {}:
        return random_instance(rng, 1)
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    for keyword in ("anyOf", "oneOf", "allOf"):
        if keyword in schema:
            return conforming_instance(rng, rng.choice(schema[keyword]), depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind)
    if kind == "object":
        return {n: conforming_instance(rng, s, depth - 1) for n, s in schema.get("properties", {}).items()
                if n in schema.get("required", []) or rng.random() < 0.7}
    if kind == "array":
        prefix = [conforming_instance(rng, s, depth - 1) for s in schema.get("prefixItems", [])]
        if schema.get("items") is False or "items" not in schema:
            return prefix
        return prefix + [conforming_instance(rng, schema["items"], depth - 1) for _ in range(rng.randint(0, 3))]
    if kind == "string":
        return rng.choice(STRINGS)
    if kind in ("number", "integer"):
        return rng.choice([n for n in NUMBERS if kind == "number" or float(n).is_integer()])
    if kind == "boolean":
        return rng.choice([True, False])
    return None


def generate():
    rng = random.Random(SEED)
    entries = []
    while len(entries) < GENERATED_SCHEMAS:
        schema = random_schema(rng, 3)
        if not isinstance(schema, dict) or len(json.dumps(schema)) < 30:
            continue
        instances = []
        for _ in range(INSTANCES_PER_SCHEMA):
            instance = conforming_instance(rng, schema, 3) if rng.random() < 0.5 else random_instance(rng, 3)
            if instance not in instances:
                instances.append(instance)
        entries.append({"generated": True, "schema": schema, "instances": instances})
    return entries


def regenerate(path):
    with open(path, encoding="utf-8") as f:
        corpus = json.load(f)
    kept = [entry for entry in corpus if not entry.get("generated")]
    corpus = kept + generate()
    verdicts(corpus)  # refuse to write a corpus the oracle cannot read
    with open(path, "w", encoding="utf-8") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in corpus))
        f.write("\n]\n")
    pairs = sum(len(entry["instances"]) for entry in corpus)
    sys.stderr.write(f"schema-differential: wrote {len(corpus)} schemas, {pairs} pairs to {path}\n")


def main(argv):
    if len(argv) == 3 and argv[1] == "--regenerate":
        regenerate(argv[2])
        return 0
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: schema-differential.py [--regenerate] CORPUS\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            corpus = json.load(f)
        results = verdicts(corpus)
    except (OSError, ValueError, KeyError, TypeError, jsonschema.SchemaError) as error:
        sys.stderr.write(f"schema-differential: bad corpus: {error}\n")
        return 1
    json.dump(results, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Config: defaults, validation errors, TOML files, round trips; and the URL scope built from it."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

import statecrawl
import statecrawl.cli
from statecrawl.config import (
    DANGEROUS_DEFAULT,
    Archive,
    BrowserSettings,
    Config,
    Incremental,
    Inputs,
    Limits,
    PolitenessSettings,
    ScopeSettings,
    Timing,
    check_url,
    merge,
    read_seeds,
)
from statecrawl.errors import ConfigError, StatecrawlError
from statecrawl.scope import Scope, origin
from tests.conftest import error_line

URL = "http://127.0.0.1:8000/"


def build(**data: Any) -> Config:
    """``Config.from_mapping`` with a valid start URL unless ``data`` gives one."""
    return Config.from_mapping({"start_urls": [URL], **data})


def config_error(**data: Any) -> str:
    """The message of the ``ConfigError`` that ``build(**data)`` raises."""
    with pytest.raises(ConfigError) as info:
        build(**data)
    return str(info.value)


# ---- defaults ---------------------------------------------------------------------------------


def test_defaults_are_valid_and_documented_values() -> None:
    config = Config(start_urls=(URL,))
    assert config.start_urls == (URL,)
    assert config.out is None
    assert config.limits == Limits()
    assert config.limits.max_depth == 3
    assert config.model == "dom"
    assert config.strategy == "breadth-first"
    assert config.dangerous == DANGEROUS_DEFAULT
    assert config.dangerous_policy == "last"
    assert config.archive.enabled is True
    assert (config.archive.screenshots, config.archive.screenshot_format) == ("new-url", "webp")
    assert (config.archive.screenshot_quality, config.archive.quality) == (None, 40)
    assert Archive(screenshot_format="jpeg").quality == 50
    assert config.browser.count == 1


def test_screenshots_switch_of_earlier_crawls_reads_as_a_mode() -> None:
    """``screenshots = true`` / ``false``, as crawls recorded it before it had modes."""
    assert Archive(screenshots=True).screenshots == "all"
    assert Archive(screenshots=False).screenshots == "none"
    config = Config.from_mapping({"start_urls": [URL], "archive": {"screenshots": False}})
    assert config.archive.screenshots == "none"
    assert Config.from_mapping(config.to_dict()) == config


def test_every_sub_config_default_passes_validation() -> None:
    for cls in (Limits, Timing, ScopeSettings, Inputs, BrowserSettings, Archive):
        assert dataclasses.is_dataclass(cls())


def test_from_mapping_with_only_start_urls_equals_python_defaults() -> None:
    assert build() == Config(start_urls=(URL,))


def test_single_start_url_string_becomes_a_tuple() -> None:
    assert Config(start_urls=URL).start_urls == (URL,)
    assert build(start_urls=URL).start_urls == (URL,)


def test_out_string_becomes_a_path() -> None:
    assert Config(start_urls=URL, out="crawl-out").out == Path("crawl-out")
    assert build(out="crawl-out").out == Path("crawl-out")


def test_int_for_float_setting_becomes_float() -> None:
    limits = build(limits={"max_time": 5}).limits
    assert limits.max_time == 5.0
    assert isinstance(limits.max_time, float)


def test_config_error_is_a_statecrawl_error() -> None:
    assert issubclass(ConfigError, StatecrawlError)


# ---- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "word"),
    [
        ("ftp://x", "not an absolute http(s) URL"),
        ("foo", "not an absolute http(s) URL"),
        ("/relative/path", "not an absolute http(s) URL"),
        ("http://", "not an absolute http(s) URL"),
        ("https:///path-only", "not an absolute http(s) URL"),
        ("javascript:alert(1)", "not an absolute http(s) URL"),
        ("http://127.0.0.1:99999/", "bad port"),
        ("http://127.0.0.1:port/", "bad port"),
    ],
)
def test_bad_start_url_is_rejected(url: str, word: str) -> None:
    message = config_error(start_urls=[url])
    assert word in message
    assert repr(url) in message
    with pytest.raises(ConfigError, match="URL"):
        Config(start_urls=(url,))


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000/", "https://example.test/a?b=c#d", "HTTP://LOCALHOST/"]
)
def test_good_url_passes_check(url: str) -> None:
    check_url(url)


def test_malformed_ipv6_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="http"):
        check_url("http://[::1/")


def test_unknown_top_level_setting_is_named() -> None:
    message = config_error(max_dept=2)
    assert "unknown setting" in message
    assert "max_dept" in message


def test_unknown_nested_setting_is_named_with_its_table() -> None:
    message = config_error(limits={"max_dept": 2})
    assert "unknown setting" in message
    assert "limits" in message
    assert "max_dept" in message


def test_all_unknown_settings_are_listed() -> None:
    message = config_error(colour="red", flavour="mint")
    assert "colour" in message
    assert "flavour" in message


def test_nested_error_prefix_has_no_stray_dot() -> None:
    assert config_error(limits={"max_dept": 2}).startswith("limits: ")


def test_missing_start_urls_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="start_urls"):
        Config.from_mapping({})


def test_python_constructors_validate_too() -> None:
    with pytest.raises(ConfigError, match="max_depth"):
        Limits(max_depth=-1)
    with pytest.raises(ConfigError, match=r"scope\.include"):
        ScopeSettings(include=("(",))
    with pytest.raises(ConfigError, match="not an absolute"):
        Config(start_urls=("foo",))


# ---- bad input: one table of bad settings, each checked three ways --------------------------

# Each row is a TOML file (a start URL is added unless it sets its own) and the words its one
# error message must contain: the setting's name, and what is allowed where that helps.
BAD_CONFIG: list[tuple[str, list[str]]] = [
    # limits
    ("[limits]\nmax_depth = -1", ["limits.max_depth", "at least 0"]),
    ("[limits]\nmax_depth = true", ["limits.max_depth", "expected int"]),
    ("[limits]\nmax_depth = '3'", ["limits.max_depth", "expected int"]),
    ("[limits]\nmax_depth = 2.5", ["limits.max_depth", "expected int"]),
    ("[limits]\nmax_depth = 1_000_000_001", ["limits.max_depth", "at most 1,000,000,000"]),
    ("[limits]\nmax_states = 0", ["limits.max_states"]),
    ("[limits]\nmax_time = 0", ["limits.max_time", "more than 0"]),
    ("[limits]\nmax_time = -5", ["limits.max_time"]),
    ("[limits]\nmax_time = inf", ["limits.max_time", "finite"]),
    ("[limits]\nmax_time = -inf", ["limits.max_time", "finite"]),
    ("[limits]\nmax_time = nan", ["limits.max_time", "finite"]),
    ("[limits]\nmax_time = 1e300", ["limits.max_time", "at most 31,536,000 seconds"]),
    ("[limits]\nmax_time = '5'", ["limits.max_time", "expected a number"]),
    ("[limits]\nmax_time = false", ["limits.max_time", "expected a number"]),
    ("[limits]\nmax_time = 1979-05-27", ["limits.max_time", "expected a number"]),
    ("[limits]\nmax_actions_per_state = 0", ["limits.max_actions_per_state"]),
    ("[limits]\nmax_states_per_url = 0", ["limits.max_states_per_url"]),
    ("[limits]\nsame_effect_after = 0", ["limits.same_effect_after"]),
    ("[limits]\nrepetitions = 0", ["limits.repetitions"]),
    ("[limits]\nmax_dept = 2", ["limits", "unknown setting", "max_dept"]),
    ("limits = 3", ["limits", "expected a table"]),
    # timing
    ("[timing]\nquiet_ms = -1", ["timing.quiet_ms"]),
    ("[timing]\nquiet_ms = 100\nsettle_timeout_ms = 50", ["timing.settle_timeout_ms"]),
    ("[timing]\nsettle_timeout_ms = 1e15", ["timing.settle_timeout_ms", "expected int"]),
    ("[timing]\nsettle_timeout_ms = 1_000_000_000_000_000", ["timing.settle_timeout_ms", "ms"]),
    ("[timing]\ntimer_ms = -1", ["timing.timer_ms"]),
    ("[timing]\nload_timeout = 0", ["timing.load_timeout"]),
    ("[timing]\nload_timeout = inf", ["timing.load_timeout", "finite"]),
    ("[timing]\nload_timeout = nan", ["timing.load_timeout", "finite"]),
    ("[timing]\nload_timeout = 1e300", ["timing.load_timeout", "at most 86,400 seconds"]),
    ("[timing]\nload_timeout = 86401", ["timing.load_timeout", "at most 86,400 seconds"]),
    ("[timing]\nload_timeout = '30'", ["timing.load_timeout", "expected a number"]),
    ("[timing]\nwait_ms = -5", ["timing.wait_ms"]),
    ("[timing]\nwait_ms = 86_400_001", ["timing.wait_ms", "at most 86,400,000 ms"]),
    # scope
    ("scope = 'x'", ["scope", "expected a table"]),
    ("[scope]\ninclude = ['(unclosed']", ["scope.include", "(unclosed"]),
    ("[scope]\nexclude = ['[a-']", ["scope.exclude", "[a-"]),
    ("[scope]\ninclude = 3", ["scope.include", "expected a list"]),
    ("[scope]\nallow = ['cdn.example.com;evil.test']", ["scope.allow", "expected a host"]),
    ("[scope]\nallow = ['http://cdn.example.com/']", ["scope.allow", "expected a host"]),
    # inputs
    ("inputs = 'x'", ["inputs", "expected a table"]),
    ("[inputs]\nvalues = { '' = ['x'] }", ["inputs.values", "field name"]),
    ("[inputs]\nvalues = { q = [] }", ["inputs.values", "'q'"]),
    ("[inputs]\nvalues = ['q']", ["inputs.values", "expected a table"]),
    ("[inputs]\nvalues = { q = 5 }", ["inputs.values", "expected a list"]),
    ("[inputs]\nmax_options = 0", ["inputs.max_options"]),
    ("[inputs]\ndefault_text = 5", ["inputs.default_text", "expected str"]),
    # browser
    ("browser = ['count']", ["browser", "expected a table"]),
    ("[browser]\ncount = 0", ["browser.count"]),
    ("[browser]\ncount = true", ["browser.count", "expected int"]),
    ("[browser]\ncount = 1000", ["browser.count", "at most 64"]),
    ("[browser]\nwindow_width = 100", ["browser.window_width", "at least 200"]),
    ("[browser]\nwindow_height = 100_000", ["browser.window_height", "pixels"]),
    ("[browser]\ndialogs = 'ignore'", ["browser.dialogs", "'accept'"]),
    ("[browser]\nanimations = 'none'", ["browser.animations", "'brief'", "'page'"]),
    ("[browser]\nextra_args = ['http://elsewhere.test/']", ["browser.extra_args", "--flags"]),
    ('[browser]\nbinary = "chro\\u0000mium"', ["browser.binary", "NUL"]),
    # archive
    ("[archive]\nenabled = 1", ["archive.enabled", "expected bool"]),
    ("[archive]\nprefix = 'my crawl'", ["archive.prefix"]),
    ("[archive]\nroll_size = 10", ["archive.roll_size", "at least 1,000,000"]),
    ("[archive]\ndedup = 'drop'", ["archive.dedup"]),
    ("[archive]\nmax_record_size = 0", ["archive.max_record_size"]),
    ("[archive]\nmax_download = 0", ["archive.max_download"]),
    # incremental
    ("incremental = 0.9", ["incremental", "expected a table"]),
    ("[incremental]\nsimilarity = 1.5", ["incremental.similarity", "at most 1"]),
    ("[incremental]\nsimilarity = -0.1", ["incremental.similarity", "at least 0"]),
    ("[incremental]\nsimilarity = nan", ["incremental.similarity", "finite"]),
    ("[incremental]\nverify = 2", ["incremental.verify", "at most 1"]),
    ("[incremental]\nseed = 0.5", ["incremental.seed", "expected int"]),
    ("[incremental]\nseed = 9_223_372_036_854_775_808", ["incremental.seed", "at most"]),
    ("[incremental]\nsample = 0.1", ["incremental", "unknown setting", "'sample'"]),
    # politeness
    ("politeness = 2", ["politeness", "expected a table"]),
    ("[politeness]\nmax_browsers_per_host = 0", ["politeness.max_browsers_per_host", "at least 1"]),
    ("[politeness]\nmin_delay_ms = -1", ["politeness.min_delay_ms", "at least 0"]),
    ("[politeness]\nmin_delay_ms = 1.5", ["politeness.min_delay_ms", "expected int"]),
    ("[politeness]\nbackoff_ms = 90_000_000_000", ["politeness.backoff_ms", "at most"]),
    ("[politeness]\nbackoff_ms = 5000\nmax_backoff_ms = 10", ["max_backoff_ms must be >="]),
    ("[politeness]\nretries = -1", ["politeness.retries", "at least 0"]),
    ("[politeness]\ndelay = 1", ["politeness", "unknown setting", "'delay'"]),
    ("[archive]\nscreenshots = 'some'", ["archive.screenshots", "'new-url'", "'some'"]),
    ("[archive]\nscreenshots = 1", ["archive.screenshots", "expected one of"]),
    ("[archive]\nscreenshot_format = 'gif'", ["archive.screenshot_format", "'webp'", "'gif'"]),
    ("[archive]\nscreenshot_quality = 0", ["archive.screenshot_quality", "at least 1"]),
    ("[archive]\nscreenshot_quality = 101", ["archive.screenshot_quality", "at most 100"]),
    ("[archive]\nscreenshot_quality = 'high'", ["archive.screenshot_quality", "expected int"]),
    # top level
    ("max_dept = 2\ncolour = 'red'", ["unknown setting", "max_dept", "colour"]),
    ("dangerous = ['(?i)log(out']", ["dangerous", "log(out"]),
    ("dangerous_policy = 'first'", ["dangerous_policy"]),
    ("[guard]\nallow = ['(?i)reset']", ["guard.allow", "Python-only syntax"]),
    ("[guard]\nallow = ['reset(']", ["guard.allow", "invalid regular expression"]),
    ("[guard]\nenabled = 'no'", ["guard.enabled", "expected bool"]),
    ("executor = 'spark'", ["executor", "'dask'"]),
    ("cluster = 'tcp://10.0.0.1:8786'", ["--cluster needs --executor dask"]),
    ("strategy = 'coverage'", ["--strategy coverage needs --coverage"]),
    ("executor = 'dask'\ncluster = '10.0.0.1'", ["cluster", "tcp://HOST:8786"]),
    ("seed = 1.5", ["seed", "expected int"]),
    ("seed = true", ["seed", "expected int"]),
    ("model = 3", ["model", "expected str"]),
    ("out = 5", ["out", "expected a path"]),
    ("out = ''", ["out", "empty"]),
    # start URLs
    ("start_urls = []", ["start URL"]),
    ("start_urls = 5", ["start_urls", "expected a list"]),
    ("start_urls = [5]", ["start_urls", "expected str"]),
    ("start_urls = ['http://exa mple.com/']", ["whitespace", "'http://exa mple.com/'"]),
    ('start_urls = ["http://a.test/\\r\\nX-Injected: 1"]', ["control character", "\\r\\n"]),
    ('start_urls = ["http://a.test/\\u0000"]', ["start_urls", "NUL"]),
    ('start_urls = ["http://\\u00a0a.test/"]', ["whitespace"]),
    ("start_urls = ['ftp://a.test/']", ["not an absolute http(s) URL"]),
    ("start_urls = ['http://127.0.0.1:0/']", ["bad port"]),
    ("start_urls = ['http://127.0.0.1:99999/']", ["bad port"]),
    ("start_urls = ['http://exa%20mple.test/']", ["bad host"]),
    ("start_urls = ['http://a..test/']", ["bad host"]),
    ("start_urls = ['http://999.0.0.1/']", ["bad host"]),
    ("[[timing.waits]]\nurl = '/x('\ncss = '#w'", ["timing.waits.url", "invalid regular"]),
    ("[[inputs.fields]]\ncss = 'a['", ["inputs.fields.css", "invalid CSS selector"]),
]


@pytest.mark.parametrize(("toml", "words"), BAD_CONFIG, ids=lambda v: repr(v)[:50])
def test_bad_config_is_a_one_line_error(
    toml: str, words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From plain data, from a TOML file and through ``statecrawl crawl --config``: one
    ``ConfigError`` naming the setting, on one line, exit status 1 and no traceback."""
    text = toml if "start_urls" in toml else f'start_urls = ["{URL}"]\n{toml}'
    with pytest.raises(ConfigError) as info:
        Config.from_mapping(tomllib.loads(text))
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert len(message.splitlines()) == 1, message
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as again:
        Config.from_toml(path)
    assert str(again.value) == message
    assert error_line(capsys, ["crawl", "--config", str(path)]) == f"statecrawl: error: {message}"


# ---- TOML files -------------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "crawl.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TOML = f"""
start_urls = ["{URL}"]
model = "text"
seed = 7

[limits]
max_depth = 5
max_states = 10

[inputs.values]
q = "patent"
"""


def test_from_toml_reads_nested_tables(tmp_path: Path) -> None:
    config = Config.from_toml(write(tmp_path, TOML))
    assert config.start_urls == (URL,)
    assert config.model == "text"
    assert config.seed == 7
    assert config.limits == Limits(max_depth=5, max_states=10)
    assert dict(config.inputs.values) == {"q": ("patent",)}


def test_from_toml_overrides_win_and_none_is_ignored(tmp_path: Path) -> None:
    other = "http://127.0.0.1:9000/"
    config = Config.from_toml(
        write(tmp_path, TOML),
        start_urls=[other],
        limits={"max_depth": 1, "max_states": None},
        model=None,
        seed=None,
        out=None,
        archive={"enabled": None},
    )
    assert config.start_urls == (other,)
    assert config.limits.max_depth == 1
    assert config.limits.max_states == 10  # the file's value: a None override is skipped
    assert config.model == "text"
    assert config.seed == 7
    assert config.out is None
    assert config.archive.enabled is True


def test_from_toml_accepts_a_string_path(tmp_path: Path) -> None:
    assert Config.from_toml(str(write(tmp_path, TOML))).seed == 7


def test_from_toml_bad_syntax(tmp_path: Path) -> None:
    path = write(tmp_path, "start_urls = [\n[limits\n")
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        Config.from_toml(path)
    assert str(path) in str(info.value)


def test_from_toml_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(ConfigError, match="config file not found") as info:
        Config.from_toml(path)
    assert str(path) in str(info.value)


def test_from_toml_directory_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        Config.from_toml(tmp_path)


def test_from_toml_non_utf8_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('model = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="cannot read config file"):
        Config.from_toml(path)


def test_from_toml_unknown_key(tmp_path: Path) -> None:
    path = write(tmp_path, f'start_urls = ["{URL}"]\n[limits]\ndepth = 2\n')
    with pytest.raises(ConfigError, match="depth"):
        Config.from_toml(path)


def test_from_toml_bool_for_int(tmp_path: Path) -> None:
    path = write(tmp_path, f'start_urls = ["{URL}"]\n[browser]\ncount = true\n')
    with pytest.raises(ConfigError, match=r"browser\.count"):
        Config.from_toml(path)


def test_from_toml_start_urls_from_overrides_only(tmp_path: Path) -> None:
    config = Config.from_toml(write(tmp_path, "model = 'exact'\n"), start_urls=[URL])
    assert config.start_urls == (URL,)
    assert config.model == "exact"


# ---- round trip, normalisation, immutability --------------------------------------------------


def full_config(tmp_path: Path) -> Config:
    return build(
        start_urls=[URL, "https://example.test/start"],
        out=str(tmp_path / "out"),
        limits={"max_depth": 2, "max_states": 50, "max_time": 12.5, "max_states_per_url": 3},
        timing={"quiet_ms": 10, "settle_timeout_ms": 100, "wait_ms": 5},
        scope={"include": [r"^http://127\.0\.0\.1"], "exclude": [r"(?i)/logout"]},
        inputs={"values": {"q": ["a", "b"], "year": "2020"}, "default_text": "x"},
        browser={"count": 2, "extra_args": ["--lang=en"], "dialogs": "dismiss"},
        archive={"enabled": False, "dedup": "skip", "include_types": ["text/html"]},
        incremental={"similarity": 0.8, "verify": 0.25, "seed": 3},
        model="structure",
        strategy="random",
        seed=42,
        dangerous=["delete"],
        dangerous_policy="skip",
    )


def test_to_dict_round_trip_equals(tmp_path: Path) -> None:
    config = full_config(tmp_path)
    assert Config.from_mapping(config.to_dict()) == config


def test_to_dict_round_trip_through_json(tmp_path: Path) -> None:
    config = full_config(tmp_path)
    data = json.loads(json.dumps(config.to_dict()))
    assert Config.from_mapping(data) == config


def test_to_dict_of_defaults_round_trips() -> None:
    config = Config(start_urls=(URL,))
    data = config.to_dict()
    assert data["out"] is None
    assert data["start_urls"] == [URL]
    assert Config.from_mapping(data) == config


def test_unset_optional_limit_round_trips() -> None:
    config = build(limits={"same_effect_after": None, "max_time": None})
    assert config.limits.same_effect_after is None
    assert Config.from_mapping(config.to_dict()) == config


def test_incremental_settings() -> None:
    assert Config(start_urls=(URL,)).incremental == Incremental(similarity=0.9, verify=0.1, seed=0)
    config = build(incremental={"similarity": 1, "verify": 0})
    assert config.incremental.similarity == 1.0 and isinstance(config.incremental.similarity, float)
    with pytest.raises(ConfigError, match="give settings by name"):
        Incremental(0.5)  # type: ignore[misc]  # keyword-only
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.incremental.similarity = 0.5  # type: ignore[misc]


def test_politeness_settings() -> None:
    assert Config(start_urls=(URL,)).politeness == PolitenessSettings(
        max_browsers_per_host=None, min_delay_ms=0, backoff_ms=1000, max_backoff_ms=60_000,
        retries=3,
    )
    config = build(politeness={"max_browsers_per_host": 2, "min_delay_ms": 250})
    assert (config.politeness.max_browsers_per_host, config.politeness.min_delay_ms) == (2, 250)
    assert Config.from_mapping(config.to_dict()) == config


# ---- seeds files ------------------------------------------------------------------------------


def test_a_seeds_file_gives_one_url_a_line_without_blanks_comments_or_repeats(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, (
        "# the sites of the crawl\n"
        "http://127.0.0.2:8000/\n"
        "\n"
        "   http://127.0.0.3:8000/app#/home   # a route of the app\n"
        "http://127.0.0.2:8000/\n"
        "  # the end\n"
    ), "seeds.txt")
    assert read_seeds(path) == ["http://127.0.0.2:8000/", "http://127.0.0.3:8000/app#/home"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("http://127.0.0.2/\nftp://127.0.0.3/\n", ["line 2", "not an absolute http(s) URL"]),
        ("\n\nhttp://127.0.0.1:0/\n", ["line 3", "bad port"]),
        ("# nothing\n\n", ["holds no URL"]),
    ],
)
def test_a_bad_seeds_file_is_a_one_line_error_naming_the_line(
    text: str, words: list[str], tmp_path: Path
) -> None:
    path = write(tmp_path, text, "seeds.txt")
    with pytest.raises(ConfigError) as info:
        read_seeds(path)
    message = str(info.value)
    assert str(path) in message and len(message.splitlines()) == 1
    for word in words:
        assert word in message, message


def test_a_missing_seeds_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read seeds file"):
        read_seeds(tmp_path / "nope.txt")


def test_to_dict_holds_plain_data(tmp_path: Path) -> None:
    data = full_config(tmp_path).to_dict()
    assert data["incremental"] == {"since": None, "similarity": 0.8, "verify": 0.25, "seed": 3}
    assert data["out"] == str(tmp_path / "out")
    assert data["inputs"]["values"] == {"q": ["a", "b"], "year": ["2020"]}
    assert data["limits"]["max_states"] == 50


def test_inputs_single_string_value_becomes_one_tuple_from_mapping() -> None:
    inputs = build(inputs={"values": {"q": "patent", "n": ["1", "2"]}}).inputs
    assert inputs.values["q"] == ("patent",)
    assert inputs.values["n"] == ("1", "2")


def test_inputs_single_string_value_becomes_one_tuple_in_python() -> None:
    assert Inputs(values={"q": "patent"}).values["q"] == ("patent",)


def test_inputs_values_are_tuples_of_str_in_python() -> None:
    assert Inputs(values={"q": ["a", "b"]}).values["q"] == ("a", "b")


def test_inputs_values_cannot_be_changed() -> None:
    inputs = Inputs(values={"q": ("a",)})
    with pytest.raises(TypeError):
        inputs.values["q"] = ("b",)  # type: ignore[index]


def test_config_is_frozen() -> None:
    config = Config(start_urls=(URL,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "exact"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.limits.max_depth = 9  # type: ignore[misc]


def test_config_is_keyword_only() -> None:
    with pytest.raises(ConfigError, match=r"^limits: give settings by name"):
        Limits(3)  # type: ignore[misc]


def test_merge_is_deep_and_skips_none() -> None:
    base = {"a": 1, "t": {"x": 1, "y": 2}}
    merged = merge(base, {"a": None, "t": {"y": 3, "z": None}, "n": {"k": None}, "b": 0})
    assert merged == {"a": 1, "t": {"x": 1, "y": 3}, "b": 0}
    assert base == {"a": 1, "t": {"x": 1, "y": 2}}


def test_merge_keeps_a_wrong_scalar_for_validation_to_report() -> None:
    """``limits = 3`` in a file stays, whatever flags add, so the user hears of it."""
    assert merge({"t": 5}, {"t": {"x": 1}}) == {"t": 5}
    assert merge({"t": 5}, {"t": {"x": None}}) == {"t": 5}


# ---- scope ------------------------------------------------------------------------------------


def scope(*urls: str, include: tuple[str, ...] = (), exclude: tuple[str, ...] = ()) -> Scope:
    settings = ScopeSettings(include=include, exclude=exclude)
    return Scope(Config(start_urls=urls or (URL,), scope=settings))


def test_origin_of_url() -> None:
    assert origin("http://127.0.0.1:8000/a/b?c#d") == "http://127.0.0.1:8000"
    assert origin("https://example.test/") == "https://example.test"


def test_default_scope_is_the_start_origins() -> None:
    s = scope(URL, "https://example.test/app/")
    assert "http://127.0.0.1:8000/deep/page?x=1" in s
    assert "https://example.test/other" in s
    assert "http://127.0.0.1:8001/" not in s  # another port is another origin
    assert "https://127.0.0.1:8000/" not in s  # another scheme too
    assert "http://example.test/other" not in s
    assert "http://localhost:8000/" not in s


def test_include_narrows_the_origin_rule() -> None:
    s = scope(include=(r"/app/",))
    assert "http://127.0.0.1:8000/app/x" in s
    assert "http://elsewhere.test/app/y" not in s  # the browser fetches from no other host
    assert "http://127.0.0.1:8000/other" not in s


def test_exclude_wins_over_origin_and_include() -> None:
    s = scope(exclude=(r"/logout",))
    assert "http://127.0.0.1:8000/logout" not in s
    assert "http://127.0.0.1:8000/login" in s
    s = scope(include=(r"/app/",), exclude=(r"/app/admin",))
    assert "http://127.0.0.1:8000/app/admin/users" not in s
    assert "http://127.0.0.1:8000/app/users" in s


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1:8000/file",
        "mailto:someone@example.test",
        "javascript:void(0)",
        "data:text/html,hi",
        "file:///etc/passwd",
    ],
)
def test_non_http_schemes_are_out_of_scope(url: str) -> None:
    assert url not in scope(include=(r".*",))


def test_origin_ignores_host_case_and_default_port() -> None:
    assert "http://localhost:8000/a" in scope("http://LOCALHOST:8000/")
    assert "http://127.0.0.1/a" in scope("http://127.0.0.1:80/")


def test_for_agent_turns_leading_inline_flags_into_js_flags() -> None:
    data = scope(include=(r"(?i)/APP/", r"^http://x/"), exclude=(r"(?is)secret.",)).for_agent()
    assert data["origins"] == ["http://127.0.0.1:8000"]
    at_origin = r"^(?=(?:http://127\.0\.0\.1:8000)(?:[/?#]|$))[\s\S]*?"
    assert data["include"] == [[at_origin + "(?:/APP/)", "i"], [at_origin + "(?:^http://x/)", ""]]
    assert data["exclude"] == [["secret.", "is"]]


def test_for_agent_origins_are_sorted_and_unique() -> None:
    data = scope("https://b.test/", "http://a.test/x", "https://b.test/y").for_agent()
    assert data["origins"] == ["http://a.test", "https://b.test"]
    assert data["include"] == []
    assert data["exclude"] == []


def test_inline_flags_still_apply_in_python() -> None:
    s = scope(include=(r"(?i)/APP/",))
    assert "http://127.0.0.1:8000/app/x" in s


def test_readme_toml_example_is_a_valid_config() -> None:
    """The example a newcomer copies from the README must load as it is."""
    import re
    import tomllib

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", readme, re.S)
    assert block is not None
    config = Config.from_mapping(tomllib.loads(block.group(1)))
    assert config.limits.max_depth == 4 and config.browser.count == 2


def test_flat_limits_beside_a_malformed_limits_table() -> None:
    """``crawl(url, limits=3, max_depth=2)`` is a ConfigError, not a TypeError."""
    with pytest.raises(ConfigError, match="limits: expected a table, got int"):
        statecrawl.crawl(URL, limits=3, max_depth=2)


# ---- field values and wait conditions ----------------------------------------------------------


def test_field_entries_and_waits_from_a_toml_file(tmp_path: Path) -> None:
    """``[[inputs.fields]]`` and ``[[timing.waits]]`` tables build their sections, and the
    config round-trips."""
    path = tmp_path / "crawl.toml"
    path.write_text(
        f'start_urls = ["{URL}"]\n'
        '[[inputs.fields]]\ncss = "input[name=q]"\nvalues = ["lithium"]\n'
        '[[inputs.fields]]\nname = "email"\nkind = "email"\ncount = 2\n'
        '[[timing.waits]]\nurl = "/slow"\ncss = "#widget"\nvisible = true\ntimeout_ms = 3000\n'
    )
    config = Config.from_toml(path)
    first, second = config.inputs.fields
    assert (first.css, first.values, first.kind) == ("input[name=q]", ("lithium",), None)
    assert (second.name, second.kind, second.count) == ("email", "email", 2)
    (wait,) = config.timing.waits
    assert (wait.url, wait.css, wait.visible, wait.timeout_ms) == ("/slow", "#widget", True, 3000)
    assert Config.from_mapping(config.to_dict()) == config


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"inputs": {"fields": [{"css": "#q[", "values": ["x"]}]}},
         "inputs.fields.css: invalid CSS selector '#q[': unclosed '['"),
        ({"inputs": {"fields": [{"css": "div >"}]}},
         "inputs.fields.css: invalid CSS selector 'div >': a combinator with nothing on one side"),
        ({"inputs": {"fields": [{"values": ["x"]}]}},
         "inputs.fields: give each entry a css selector or a field name (not both)"),
        ({"inputs": {"fields": [{"name": "q", "values": ["x"], "kind": "text"}]}},
         "inputs.fields: give 'q' values or a kind, not both"),
        ({"inputs": {"fields": [{"name": "q", "kind": "colour"}]}},
         "inputs.fields.kind: expected one of 'auto', 'text', 'email', 'number', 'date', 'url', "
         "'tel', got 'colour'"),
        ({"timing": {"waits": [{"url": "/slow(", "css": "#w"}]}},
         "timing.waits.url: invalid regular expression '/slow(': missing ), unterminated "
         "subpattern at position 5"),
        ({"timing": {"waits": [{"url": "/slow", "css": "a,,b"}]}},
         "timing.waits.css: invalid CSS selector 'a,,b': an empty selector"),
        ({"timing": {"waits": [{"url": "/slow"}]}}, "timing.waits: missing setting(s) 'css'"),
    ],
)
def test_malformed_field_or_wait_is_one_line(data: dict[str, Any], message: str) -> None:
    assert config_error(**data) == message


def test_field_flag_splits_at_the_first_equals_outside_brackets() -> None:
    """``--field 'input[name=q]=a=b'``: the selector keeps its ``=``, the value its own."""
    args = statecrawl.cli.parser().parse_args(
        ["crawl", URL, "--field", "input[name=q]=a=b", "--field", "#city=Oslo"]
    )
    fields = statecrawl.cli._options(args)["inputs"]["fields"]
    assert fields == [{"css": "input[name=q]", "values": ["a=b"]},
                      {"css": "#city", "values": ["Oslo"]}]


def test_the_guard_is_on_by_default_and_flags_turn_it_off_or_let_through() -> None:
    assert Config(start_urls=[URL]).guard.enabled
    args = statecrawl.cli.parser().parse_args(["crawl", URL, "--no-guard"])
    assert statecrawl.cli._options(args)["guard"] == {"enabled": False, "allow": None}
    args = statecrawl.cli.parser().parse_args(
        ["crawl", URL, "--allow-destructive", "--guard-allow", "/api/x", "--guard-allow", "^Go$"]
    )
    assert statecrawl.cli._options(args)["guard"] == {"enabled": False, "allow": ["/api/x", "^Go$"]}
    config = Config.from_mapping({"start_urls": [URL], "guard": {"allow": ["/api/x"]}})
    agent = config.guard.for_agent()
    assert agent is not None and agent["allow"] == ["/api/x"]
    assert Config(start_urls=[URL], guard={"enabled": False}).guard.for_agent() is None

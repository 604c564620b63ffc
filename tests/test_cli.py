"""The command line: one-line errors, argument parsing, config building; one real-browser run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import statecrawl
from statecrawl.cli import build_config, main, parser
from tests.conftest import error_line
from tests.test_counts import surfaces_agree

URL = "http://127.0.0.1:8000/"


def config_of(argv: list[str]):
    args = parser().parse_args(["crawl", *argv])
    return build_config(args, args.urls)


# ---- one-line errors --------------------------------------------------------------------------


def test_relative_url_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(capsys, ["crawl", "foo"])
    assert line == "statecrawl: error: not an absolute http(s) URL: 'foo'"


def test_missing_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    line = error_line(capsys, ["crawl", URL, "--config", str(path)])
    assert line == f"statecrawl: error: config file not found: {path}"


def test_malformed_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[limits\nmax_depth = 2\n", encoding="utf-8")
    line = error_line(capsys, ["crawl", URL, "-c", str(path)])
    assert "is not valid TOML" in line
    assert str(path) in line


def test_unknown_key_in_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "unknown.toml"
    path.write_text("[limits]\nmax_dept = 2\n", encoding="utf-8")
    line = error_line(capsys, ["crawl", URL, "--config", str(path)])
    assert "unknown setting" in line
    assert "max_dept" in line


BAD_ARGS: list[tuple[list[str], str]] = [
    # start URLs
    (["crawl"], "give at least one start URL"),
    (["crawl", "ftp://x"], "not an absolute http(s) URL: 'ftp://x'"),
    (["crawl", "http://"], "not an absolute http(s) URL: 'http://'"),
    (["crawl", "http://:80/"], "not an absolute http(s) URL"),
    (["crawl", "javascript:alert(1)"], "not an absolute http(s) URL"),
    (["crawl", "file:///etc/passwd"], "not an absolute http(s) URL"),
    (["crawl", "//127.0.0.1/"], "not an absolute http(s) URL"),
    (["crawl", "http://exa mple.com/"], "URL with whitespace or a control character (' ')"),
    (["crawl", "http://a.test/\r\nX-Injected: 1"], "'http://a.test/\\r\\nX-Injected: 1'"),
    (["crawl", "http://a.test/\n"], "control character"),
    (["crawl", "http://a.test/\x07"], "control character"),
    (["crawl", "http://a.test/\t"], "whitespace"),
    (["crawl", "http://exa\u2028mple.test/"], "whitespace"),
    (["crawl", "http://127.0.0.1:99999/"], "bad port in URL: 'http://127.0.0.1:99999/'"),
    (["crawl", "http://127.0.0.1:0/"], "bad port"),
    (["crawl", "http://127.0.0.1:1/"], "'http://127.0.0.1:1/': port 1 is tcpmux's, one Chromium "
     "refuses to load (ERR_UNSAFE_PORT): serve the application on another port"),
    (["crawl", "http://[::1]:6667/"], "port 6667 is irc's"),
    (["crawl", "http://127.0.0.1:-1/"], "bad port"),
    (["crawl", "http://127.0.0.1:http/"], "bad port"),
    (["crawl", "http://exa_mple..test/"], "bad host"),
    (["crawl", "http://<script>/"], "bad host"),
    (["crawl", "http://" + "a" * 70_000 + ".test/"], "longer than 65,536"),
    (["crawl", URL, "http://[::1/"], "not an absolute http(s) URL"),
    # numbers
    (["crawl", URL, "--max-depth", "abc"], "argument --max-depth: invalid int value: 'abc'"),
    (["crawl", URL, "--max-depth", "1.5"], "--max-depth"),
    (["crawl", URL, "--max-depth", ""], "--max-depth"),
    (["crawl", URL, "--max-depth", "-1"], "limits.max_depth"),
    (["crawl", URL, "--max-depth"], "argument --max-depth: expected one argument"),
    (["crawl", URL, "--max-states", "0"], "limits.max_states"),
    (["crawl", URL, "--max-states", "10000000000"], "limits.max_states"),
    (["crawl", URL, "--max-time", "inf"], "limits.max_time: expected a finite number"),
    (["crawl", URL, "--max-time", "nan"], "limits.max_time: expected a finite number"),
    (["crawl", URL, "--max-time", "1e999"], "limits.max_time: expected a finite number"),
    (["crawl", URL, "--max-time", "1e300"], "limits.max_time must be"),
    (["crawl", URL, "--max-time", "0"], "limits.max_time must be more than 0"),
    (["crawl", URL, "--max-time", "-5"], "limits.max_time"),
    (["crawl", URL, "--max-time", "soon"], "argument --max-time: invalid float value"),
    (["crawl", URL, "--browsers", "0"], "browser.count"),
    (["crawl", URL, "--browsers", "1000"], "browser.count must be at least 1 and at most 64"),
    (["crawl", URL, "--browsers", "two"], "argument --browsers"),
    (["crawl", URL, "--wait-ms", "-1"], "timing.wait_ms"),
    (["crawl", URL, "--wait-ms", "1e15"], "argument --wait-ms: invalid int value"),
    (["crawl", URL, "--wait-ms", "1000000000000000"], "timing.wait_ms"),
    (["crawl", URL, "--max-browsers-per-host", "0"], "politeness.max_browsers_per_host"),
    (["crawl", URL, "--min-delay-ms", "-5"], "politeness.min_delay_ms must be at least 0"),
    (["crawl", "--seeds", "/nonexistent/seeds.txt"], "cannot read seeds file"),
    # other values
    (["crawl", URL, "--scope", "(oops"], "scope.include: invalid regular expression"),
    (["crawl", URL, "--exclude", "[a-"], "scope.exclude: invalid regular expression"),
    (["crawl", URL, "--input", "badvalue"], "argument --input: expected NAME=VALUE"),
    (["crawl", URL, "--input", "=x"], "expected NAME=VALUE, got '=x'"),
    (["crawl", URL, "--field", "#q[=x"], "argument --field: expected SELECTOR=VALUE"),
    (["crawl", URL, "--field", "div >=x"], "inputs.fields.css: invalid CSS selector 'div >'"),
    (["crawl", URL, "--out", ""], "out: must not be empty"),
    (["crawl", URL, "--out", "{tmp}", "--model", "psychic"], "unknown state model 'psychic'"),
    (["crawl", URL, "--out", "{tmp}", "--strategy", "psychic"], "unknown strategy 'psychic'"),
    (["crawl", URL, "--screenshots", "some"], "archive.screenshots: expected one of"),
    (["crawl", URL, "--screenshot-format", "gif"], "archive.screenshot_format"),
    (["crawl", URL, "--screenshot-quality", "0"], "archive.screenshot_quality must be at least 1"),
    (["crawl", URL, "--viewport", "wide"], "argument --viewport: expected WIDTHxHEIGHT"),
    (["crawl", URL, "--viewport", "100x900"], "browser.window_width must be at least 200"),
    # the command line itself
    ([], "the following arguments are required: command"),
    (["explode"], "invalid choice: 'explode'"),
    (["crawl", URL, "--bogus"], "unrecognized arguments: --bogus"),
    (["demo", "--browsers", "0"], "browser.count"),
    (["demo", "--max-time", "nan"], "limits.max_time: expected a finite number"),
    (["demo", "--revision", "2"], "argument --revision: invalid choice: 2"),
]


@pytest.mark.parametrize(("argv", "words"), BAD_ARGS, ids=lambda v: repr(v)[:50])
def test_bad_argument_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str, tmp_path: Path
) -> None:
    """Every bad URL, flag value or command line: exit status 1, one stderr line that says
    what is wrong, no traceback, no browser started."""
    argv = [arg.replace("{tmp}", str(tmp_path / "out")) for arg in argv]
    assert words in error_line(capsys, argv)


# ---- argparse ---------------------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"statecrawl {statecrawl.__version__}\n"


def test_the_log_level_goes_before_or_after_the_command() -> None:
    assert parser().parse_args(["crawl", URL]).log_level == "warning"
    assert parser().parse_args(["--log-level", "debug", "crawl", URL]).log_level == "debug"
    assert parser().parse_args(["crawl", URL, "--log-level", "info"]).log_level == "info"
    assert parser().parse_args(["report", "d", "--log-level", "error"]).log_level == "error"


# ---- build_config -----------------------------------------------------------------------------


def test_flags_build_the_config(tmp_path: Path) -> None:
    config = config_of(
        [
            URL, "https://example.test/",
            "--out", str(tmp_path / "out"),
            "--max-depth", "1", "--max-states", "20", "--max-time", "30",
            "--scope", "^http://127", "--scope", "example", "--exclude", "/logout",
            "--input", "q=laser", "--input", "q=maser", "--input", " year =2020",
            "--input", "empty=",
            "--browsers", "2", "--wait-ms", "10", "--model", "text", "--strategy", "random",
            "--no-archive", "--screenshots", "new-url", "--screenshot-format", "webp",
            "--screenshot-quality", "40", "--viewport", "800x600",
        ]
    )
    assert config.start_urls == (URL, "https://example.test/")
    assert config.out == tmp_path / "out"
    assert (config.limits.max_depth, config.limits.max_states) == (1, 20)
    assert config.limits.max_time == 30.0
    assert config.scope.include == ("^http://127", "example")
    assert config.scope.exclude == ("/logout",)
    assert dict(config.inputs.values) == {
        "q": ("laser", "maser"),
        "year": ("2020",),
        "empty": ("",),
    }
    assert config.browser.count == 2
    assert config.timing.wait_ms == 10
    assert (config.model, config.strategy) == ("text", "random")
    assert config.archive.enabled is False
    assert (config.archive.screenshots, config.archive.screenshot_format) == ("new-url", "webp")
    assert config.archive.screenshot_quality == 40
    assert (config.browser.window_width, config.browser.window_height) == (800, 600)


def test_seeds_and_politeness_flags_build_the_config(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# two sites\nhttp://127.0.0.2:8000/\n\nhttp://127.0.0.3:8000/\n")
    config = config_of(
        [URL, "--seeds", str(seeds), "--max-browsers-per-host", "1", "--min-delay-ms", "200"]
    )
    assert config.start_urls == (URL, "http://127.0.0.2:8000/", "http://127.0.0.3:8000/")
    assert config.politeness.max_browsers_per_host == 1
    assert config.politeness.min_delay_ms == 200


def test_a_bad_line_of_a_seeds_file_is_a_one_line_error_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://127.0.0.2:8000/\n127.0.0.3:8000\n")
    line = error_line(capsys, ["crawl", "--seeds", str(seeds), "--out", str(tmp_path / "o")])
    assert line == (
        f"statecrawl: error: {seeds}, line 2: not an absolute http(s) URL: '127.0.0.3:8000'"
    )


def test_no_flags_give_the_defaults() -> None:
    assert config_of([URL]) == statecrawl.Config(start_urls=(URL,))


def test_flags_win_over_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "crawl.toml"
    path.write_text(
        f'start_urls = ["{URL}"]\nmodel = "exact"\n'
        "[limits]\nmax_depth = 4\nmax_states = 9\n[archive]\nenabled = false\n",
        encoding="utf-8",
    )
    from_file = config_of(["--config", str(path)])
    assert from_file.start_urls == (URL,)
    assert from_file.limits.max_depth == 4
    assert from_file.archive.enabled is False
    other = "http://127.0.0.1:9000/"
    flags = config_of(["--config", str(path), other, "--max-depth", "1", "--model", "dom"])
    assert flags.start_urls == (other,)
    assert flags.limits.max_depth == 1
    assert flags.limits.max_states == 9
    assert flags.model == "dom"
    assert flags.archive.enabled is False


# ---- the installed command, with a real browser -----------------------------------------------


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "statecrawl.cli", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )


def test_command_bad_url_exits_1_with_one_line(tmp_path: Path) -> None:
    done = run(["crawl", "foo"], tmp_path)
    assert done.returncode == 1
    assert done.stderr == "statecrawl: error: not an absolute http(s) URL: 'foo'\n"
    assert done.stdout == ""


def test_command_unreachable_host_exits_1_with_one_line(tmp_path: Path) -> None:
    """Starts Chromium: port 9 on loopback is closed, so the first load fails."""
    done = run(["crawl", "http://127.0.0.1:4/", "--out", str(tmp_path / "out"), "-q"], tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("statecrawl: error: cannot load http://127.0.0.1:4/")
    assert "Traceback" not in done.stderr


def test_demo_reaches_every_result_page_detail_and_tab(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's main job: checked against the demo app's own data, not fixed counts; its
    counts the same on every surface."""
    from statecrawl.demo_app.coverage import coverage
    from statecrawl.demo_app.data import DEMO_QUERIES

    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "-q", "--browsers", "2", "--no-archive"]) == 0
    printed = capsys.readouterr().out
    assert "states" in printed and str(out) in printed
    result = statecrawl.load(out)
    surfaces_agree(result, printed, tmp_path)  # the CLI, graph.json, the report, the service
    states = list(result.states())
    found = coverage(states, {s["id"]: result.html(s["id"]) for s in states}, DEMO_QUERIES)
    for query in found["queries"]:
        assert query.pages == query.expected_pages, query.query
        assert query.details == query.expected_details, query.query
        for number in query.expected_details:
            assert found["tabs"][number] == {"claims", "description", "citations"}, number


def test_the_commands_that_read_a_crawl_never_load_selenium() -> None:
    """``report``, ``diff`` and ``export`` work on a crawl directory: only a crawl loads
    the engine and the browser's driver."""
    code = "import sys, statecrawl.cli; print(any(m.startswith('selenium') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_crawl_needs_out(capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(capsys, ["crawl", URL])
    assert line == ('statecrawl: error: --out DIR is needed: the crawl directory to write '
                    '(or out = "DIR" in the --config file)')

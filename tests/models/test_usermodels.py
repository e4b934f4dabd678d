"""Registered models: imported only when trusted, never blocking or killing the caller; problems are data."""

from __future__ import annotations

import io
import time
from pathlib import Path

from checking import MODEL_FIXTURES

from toolsense.settings import Settings
from toolsense.usermodels import load_models, load_models_for_cli, setting_location, split_target, start_loading


def settings(**models: str) -> Settings:
    return Settings(models=models, python_path=(str(MODEL_FIXTURES),))


def test_targets_are_package_module_colon_name() -> None:
    assert split_target("pkg.mod:Model") == ("pkg.mod", "Model")
    assert split_target("pkg.mod:Outer.Inner") == ("pkg.mod", "Outer.Inner")
    for bad in ("pkg.mod", ":Model", "pkg mod:Model", "pkg.mod:", "pkg.mod:Mo-del"):
        assert split_target(bad) is None


def test_a_model_is_loaded_with_its_location_and_strict_schema() -> None:
    registry = load_models(settings(get_weather="tsfx_good:WeatherInput"), MODEL_FIXTURES, timeout=20)
    assert registry.problems == []
    loaded = registry.model_for("get_weather")
    assert loaded is not None
    assert loaded.location.startswith("tsfx_good:WeatherInput (") and loaded.location.endswith("tsfx_good.py:25)")
    assert loaded.locations["Place"].endswith("tsfx_good.py:18)")
    assert loaded.schema["$defs"]["Unit"]["enum"] == ["celsius", "fahrenheit"]
    assert loaded.schema["$defs"]["Unit"]["x-enum-names"] == ["CELSIUS", "FAHRENHEIT"]
    assert loaded.schema["additionalProperties"] is False


def test_modules_that_raise_hang_spin_or_exit_at_import_are_problems_within_the_timeout() -> None:
    started = time.monotonic()
    registry = load_models(
        settings(
            ok="tsfx_good:WeatherInput",
            raises="tsfx_raises:M",
            sleeps="tsfx_sleeps:M",
            spins="tsfx_loops:M",
            exits="tsfx_exits:M",
            plain="tsfx_good:NotAModel",
            missing="tsfx_good:Nope",
            malformed="not a target",
        ),
        MODEL_FIXTURES,
        timeout=3,
    )
    elapsed = time.monotonic() - started
    assert elapsed < 20, elapsed  # all probes run side by side: about one timeout, not one per module
    problems = {p.key: (p.code, p.message) for p in registry.problems}
    assert problems == {
        "raises": ("TS801", "cannot import 'tsfx_raises': RuntimeError: database not configured"),
        "sleeps": (
            "TS802",
            "cannot import 'tsfx_sleeps': importing it took longer than 3 s (a loop or a wait at import time?)",
        ),
        "spins": (
            "TS802",
            "cannot import 'tsfx_loops': importing it took longer than 3 s (a loop or a wait at import time?)",
        ),
        "exits": ("TS801", "cannot import 'tsfx_exits': the Python process importing it exited (status 3)"),
        "plain": ("TS803", "'tsfx_good:NotAModel' is not a pydantic model class"),
        "missing": ("TS801", "'tsfx_good' has no 'Nope'"),
        "malformed": ("TS804", "'not a target' is not of the form package.module:Name"),
    }
    assert registry.model_for("ok") is not None
    import sys

    assert "tsfx_sleeps" not in sys.modules and "tsfx_exits" not in sys.modules  # never imported here


def test_background_loading_returns_at_once_and_calls_back() -> None:
    done: list[object] = []
    started = time.monotonic()
    loading = start_loading(settings(slow="tsfx_sleeps:M"), MODEL_FIXTURES, done.append)
    assert time.monotonic() - started < 0.5
    assert not loading.done
    registry = loading.result(30)
    assert registry is not None and loading.done and done == [registry]
    assert registry.problems[0].code == "TS802"


def test_registered_enums_must_be_enums() -> None:
    registry = load_models(
        Settings(enums={"Unit": "tsfx_good:Unit", "Place": "tsfx_good:Place"}, python_path=(str(MODEL_FIXTURES),)),
        MODEL_FIXTURES,
        timeout=20,
    )
    assert registry.enums["Unit"].values == ["celsius", "fahrenheit"]
    assert [(p.key, p.code) for p in registry.problems] == [("Place", "TS803")]


def test_the_settings_entry_is_found_for_placing_a_problem(tmp_path: Path) -> None:
    config = tmp_path / "toolsense.toml"
    config.write_text('python_path = ["."]\n\n[models]\nget_weather = "a.b:C"\n"my-tool" = "a.b:D"\n', encoding="utf-8")
    assert setting_location(config, "models", "get_weather") == (3, 0, 11)
    assert setting_location(config, "models", "my-tool") == (4, 0, 9)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.toolsense.models]\nget_weather = "a.b:C"\n', encoding="utf-8")
    assert setting_location(pyproject, "models", "get_weather") == (1, 0, 11)
    assert setting_location(pyproject, "models", "other") is None


def test_the_cli_loader_prints_problems_with_the_settings_place(tmp_path: Path) -> None:
    config = tmp_path / "toolsense.toml"
    config.write_text(f'python_path = ["{MODEL_FIXTURES}"]\n[models]\nbroken = "tsfx_raises:M"\n', encoding="utf-8")
    err = io.StringIO()
    registry = load_models_for_cli(
        Settings(models={"broken": "tsfx_raises:M"}, python_path=(str(MODEL_FIXTURES),)), tmp_path, err
    )
    assert registry is not None
    assert err.getvalue() == (
        f"toolsense: {config}:3:1: model 'broken' (tsfx_raises:M): cannot import 'tsfx_raises': "
        "RuntimeError: database not configured\n"
    )
    untrusted = io.StringIO()
    assert load_models_for_cli(Settings(models={"x": "a:B"}, trusted=False), tmp_path, untrusted) is None
    assert "not imported" in untrusted.getvalue()
    assert load_models_for_cli(Settings(), tmp_path, io.StringIO()) is None


def test_the_probe_loads_pydantic_before_it_times_the_module(tmp_path: Path) -> None:
    # The module's own import is timed, not pydantic's (which nearly every model module imports and toolsense has
    # loaded already): on a loaded machine pydantic alone can take longer than the timeout.
    from toolsense.modelprobe import probe_modules

    (tmp_path / "needs_pydantic_loaded.py").write_text(
        "import sys\nif 'pydantic' not in sys.modules:\n    raise RuntimeError('timed with pydantic')\n",
        encoding="utf-8",
    )
    assert probe_modules(["needs_pydantic_loaded"], [str(tmp_path)], timeout=30) == {"needs_pydantic_loaded": None}

"""Smoke tests of the training recipes in examples/: Stable-Baselines3 + sb3-contrib's
MaskablePPO on action slots and on the flat action space, and a CleanRL-style PPO on
action features.

A few hundred CPU steps each: they prove the recipes run end to end with the real
libraries and update their networks, not that they learn to play well."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (the test extra has it)")
pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (the test extra has it)")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_recipe_trains_on_the_masked_flat_space() -> None:
    recipe = _example("sb3_maskable_ppo")
    env = recipe.make_env("basic", 2, actions="flat")
    assert env.observation_space.shape == (env.table.encoder.size,)  # mask left out
    model = recipe.train(
        "basic", 2, steps=128, seed=0, n_steps=64, batch_size=32, actions="flat", n_envs=1
    )
    assert model.num_timesteps >= 128
    before = [
        p.detach().clone() for p in recipe.MaskablePPO("MlpPolicy", env, seed=0).policy.parameters()
    ]
    after = list(model.policy.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(after, before, strict=True))
    # The trained policy only ever picks legal actions.
    obs, _ = env.reset(seed=5)
    for _ in range(30):
        mask = env.action_masks()
        action = int(model.predict(obs, action_masks=mask)[0])
        assert mask[action]
        obs, _r, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break


def test_maskable_ppo_recipe_trains_on_action_slots() -> None:
    """The default recipe: K = 32 slots (Discrete(32)), whose feature rows are in the
    observation and whose mask is action_masks(); the policy scores every slot."""
    recipe = _example("sb3_maskable_ppo")
    env = recipe.make_env("romme", 2)
    assert env.action_space.n == 32
    assert set(env.observation_space.spaces) == {"observation", "action_features"}
    model = recipe.train("romme", 2, steps=128, seed=0, n_steps=32, batch_size=32, n_envs=2)
    assert model.num_timesteps >= 128
    fresh = recipe.MaskablePPO(recipe.SlotPolicy, env, seed=0)
    # Its size does not follow romme's 141,050 flat numbers.
    assert sum(p.numel() for p in fresh.policy.parameters()) < 300_000
    assert any(
        not torch.equal(a, b)
        for a, b in zip(model.policy.parameters(), fresh.policy.parameters(), strict=True)
    )
    obs, _ = env.reset(seed=5)
    for _ in range(30):
        mask = env.action_masks()
        row = int(model.predict(obs, action_masks=mask)[0])
        assert mask[row]
        obs, _r, terminated, truncated, _ = env.step(row)
        if terminated or truncated:
            break


def test_cleanrl_ppo_recipe_scores_rows_of_action_features() -> None:
    recipe = _example("cleanrl_ppo")
    args = recipe.Args(
        total_timesteps=128,
        num_envs=2,
        num_steps=32,
        update_epochs=1,
        hidden=32,
        max_legal_actions=32,
        eval_deals=0,
    )
    torch.manual_seed(args.seed)
    untrained = recipe.Agent(
        recipe.make_env(args).observation_space["observation"].shape[0],
        recipe.make_env(args).features.size,
        args.hidden,
    )
    agent, figures = recipe.train(args)
    assert figures["steps"] == 128
    assert any(
        not torch.equal(a, b)
        for a, b in zip(agent.parameters(), untrained.parameters(), strict=True)
    )
    assert math.isnan(recipe.evaluate(args, agent, []))


def test_cleanrl_ppo_recipe_main_prints_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    recipe = _example("cleanrl_ppo")
    figures = recipe.main(
        [
            "--variant",
            "basic",
            "--total-timesteps",
            "64",
            "--num-envs",
            "1",
            "--num-steps",
            "64",
            "--update-epochs",
            "1",
            "--hidden",
            "16",
            "--eval-deals",
            "1",
            "--max-steps-per-deal",
            "300",
        ]
    )
    assert {"trained", "random", "steps_per_second"} <= set(figures)
    assert "basic (2 seats): 64 steps" in capsys.readouterr().out

"""Calibration on synthetic data (numpy only): /usr/bin/python3 -m unittest training/detector/test_calibration.py"""
import os, sys, unittest
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration import confidence, fit_platt, fit_temperature, nll, reliability  # noqa: E402


def synthetic(a, b, n=20000, seed=1):
    rng = np.random.default_rng(seed)
    z = rng.normal(0.0, 3.0, n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(a * z + b)))).astype(np.float64)
    return z, y


class Calibration(unittest.TestCase):
    def test_platt_recovers_the_generating_curve(self):
        z, y = synthetic(0.5, -1.0)
        c = fit_platt(z, y)
        self.assertAlmostEqual(c["a"], 0.5, delta=0.03)
        self.assertAlmostEqual(c["b"], -1.0, delta=0.06)
        self.assertEqual(c["n"], len(z))
        # and it beats the raw logits and the best temperature on held-out draws of the same curve
        z2, y2 = synthetic(0.5, -1.0, seed=2)
        p = 1 / (1 + np.exp(-(c["a"] * z2 + c["b"])))
        self.assertLess(nll(p, y2), nll(1 / (1 + np.exp(-z2)), y2))
        T = fit_temperature(z, y)
        self.assertLess(nll(p, y2), nll(1 / (1 + np.exp(-z2 / T)), y2))

    def test_temperature_recovers_an_overconfident_scale(self):
        z, y = synthetic(1 / 2.5, 0.0)
        self.assertAlmostEqual(fit_temperature(z, y), 2.5, delta=0.15)

    def test_nothing_to_fit_is_the_identity_and_a_stays_positive(self):
        self.assertEqual(fit_platt(np.array([]), np.array([]))["a"], 1.0)
        self.assertEqual(fit_platt(np.array([1.0, 2.0]), np.array([0.0, 0.0]))["b"], 0.0)
        z, y = synthetic(-0.7, 0.0)  # a reversed ranking is not a calibration: kept monotone
        self.assertGreater(fit_platt(z, y)["a"], 0)
        self.assertEqual(confidence(0.0, {"a": 2.0, "b": 0.0}), 0.5)
        self.assertAlmostEqual(confidence(2.0, 2.0), 1 / (1 + np.exp(-1)))

    def test_reliability_table_bins_and_error(self):
        conf = [0.95] * 10 + [0.15] * 10
        right = [1] * 9 + [0] + [1] * 5 + [0] * 5
        rows, ece = reliability(conf, right)
        self.assertEqual(len(rows), 10)
        self.assertEqual(rows[9], {"bin": "0.9-1.0", "detections": 10, "precision": 0.9, "mean_confidence": 0.95})
        self.assertEqual(rows[1]["precision"], 0.5)
        self.assertIsNone(rows[5]["precision"])
        self.assertAlmostEqual(ece, 0.5 * 0.05 + 0.5 * 0.35, places=4)
        self.assertEqual(reliability([1.0], [1])[0][9]["detections"], 1)
        # a calibrated curve has a small error once fitted, the raw overconfident logits a large one
        z, y = synthetic(0.4, -0.5)
        c = fit_platt(z, y)
        _, e_fit = reliability([confidence(v, c) for v in z], y)
        _, e_raw = reliability(1 / (1 + np.exp(-z)), y)
        self.assertLess(e_fit, 0.02)
        self.assertGreater(e_raw, 0.1)


if __name__ == "__main__":
    unittest.main()

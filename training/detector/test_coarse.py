"""Unit tests of the coarse pass's parts (training/detector/coarse.py): the halving the product copies, the merge.

  /usr/bin/python3 -m unittest training/detector/test_coarse.py
"""
import os, sys, unittest
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calibration import confidence  # noqa: E402
from coarse import as_fine_logit, halve, merged  # noqa: E402


class Halve(unittest.TestCase):
    def test_two_by_two_means_and_odd_edges_dropped(self):
        img = np.arange(5 * 7 * 3, dtype=np.uint8).reshape(5, 7, 3)
        h = halve(img)
        self.assertEqual(h.shape, (2, 3, 3))
        self.assertAlmostEqual(float(h[1, 2, 1]), float(img[2:4, 4:6, 1].astype(np.float64).mean()))


class Merge(unittest.TestCase):
    FINE, COARSE = {"a": 1.7, "b": 0.0}, {"a": 1.6, "b": 0.5}

    def test_equivalent_logit_gives_the_coarse_confidence(self):
        for z in (-3.0, 0.0, 2.5):
            self.assertAlmostEqual(confidence(as_fine_logit(z, self.COARSE, self.FINE), self.FINE), confidence(z, self.COARSE))

    def test_wide_coarse_kept_narrow_dropped_more_confident_wins(self):
        fine = [{"type": "link", "bbox": [105, 42, 690, 78], "logit": -1.0}, {"type": "checkbox", "bbox": [10, 10, 26, 26], "logit": 2.0}]
        coarse = [{"type": "text_input", "bbox": [100, 40, 700, 80], "logit": 1.0}, {"type": "checkbox", "bbox": [300, 10, 316, 26], "logit": 3.0}]
        out = merged(fine, coarse, 192, self.COARSE, self.FINE)
        self.assertEqual([(d["type"], d["pass_"]) for d in out], [("checkbox", "fine"), ("text_input", "coarse")])


if __name__ == "__main__":
    unittest.main()

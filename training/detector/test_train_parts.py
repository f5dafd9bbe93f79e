"""Unit tests of the detector trainer's parts that need no generated data: initialising from an ONNX export, the
class-balanced crop sampler, the per-type loss weights.

  /usr/bin/python3 -m unittest training/detector/test_train_parts.py
"""
import collections, os, sys, tempfile, unittest
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
from common import STRIDE, TYPES, Detector, keypoint  # noqa: E402
from onnx_init import load_onnx, max_abs_diff, recalibrate_bn, run_onnx  # noqa: E402
from train import Sampler, batches, class_weights, gaussian_targets, losses  # noqa: E402
from common import read_index  # noqa: E402

torch.set_num_threads(1)


def randomised(seed):
    """A Detector with random weights and random, non-trivial BatchNorm statistics (so that folding them matters)."""
    torch.manual_seed(seed)
    m = Detector()
    with torch.no_grad():
        for mod in m.modules():
            if isinstance(mod, torch.nn.BatchNorm2d):
                mod.running_mean.uniform_(-0.5, 0.5)
                mod.running_var.uniform_(0.3, 2.0)
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.3, 0.3)
    return m.eval()


class OnnxInit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import onnx
        cls.src = randomised(3)
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "m.onnx")
        torch.onnx.export(cls.src, torch.zeros(1, 3, 64, 96), cls.path, opset_version=13, input_names=["image"], output_names=["heat_logits", "box", "state_logits"],
                          dynamic_axes={"image": {2: "height", 3: "width"}})
        cls.proto = onnx.load(cls.path)
        cls.x = torch.rand(2, 3, 96, 128, generator=torch.Generator().manual_seed(1)) * 255

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_graph_runner_matches_the_exported_network(self):
        with torch.no_grad():
            want = self.src(self.x)
        got = run_onnx(self.proto, self.x)
        for a, b in zip(want, got):
            self.assertLess(float((a - b).abs().max() / (a.abs().max() + 1e-6)), 1e-4)

    def test_loaded_weights_reproduce_the_onnx_outputs(self):
        fresh = Detector()
        before = max_abs_diff(fresh, self.proto, self.x)
        load_onnx(fresh, self.path)
        after = max_abs_diff(fresh, self.proto, self.x)
        self.assertGreater(before[0], 0.1)  # a fresh network is not the exported one: the check can fail
        self.assertLess(after[0], 1e-3)
        self.assertLess(after[2], 1e-3)
        with torch.no_grad():
            box = self.src(self.x)[1]
        self.assertLess(after[1] / float(box.abs().max()), 1e-4)

    def test_bn_re_estimation_keeps_eval_outputs_and_sets_batch_statistics(self):
        m = Detector()
        load_onnx(m, self.path)
        batches = [torch.rand(4, 3, 64, 64, generator=torch.Generator().manual_seed(k)) * 255 for k in range(2)]
        recalibrate_bn(m, batches)
        d = max_abs_diff(m, self.proto, self.x)
        self.assertLess(d[0], 1e-3)
        self.assertLess(d[2], 1e-3)
        # In training mode (batch statistics) on a batch like the ones measured, the output stays near the eval output.
        with torch.no_grad():
            m.eval()
            ev = m(batches[0])[0]
            m.train()
            tr = m(batches[0])[0]
            m.eval()
        self.assertLess(float((ev - tr).abs().max() / ev.abs().max()), 0.5)

    def test_a_network_of_other_shapes_is_refused(self):
        with self.assertRaises(ValueError):
            load_onnx(Detector(width=0.5), self.path)


def fake_metas():
    """Screens whose element types are very unequal: 40 buttons for 1 radio button per screen."""
    out = []
    for i in range(30):
        els = [{"type": "button", "bbox": [10 + 5 * k, 10, 40 + 5 * k, 30]} for k in range(40)]
        els.append({"type": "radio_button", "bbox": [500, 400, 514, 414]})
        if i % 3 == 0:
            els.append({"type": "tab", "bbox": [200, 5, 260, 25]})
        out.append({"id": f"s{i}", "family": "tk" if i % 2 else "gtk", "subfamily": "x", "elements": els, "_dir": "", "image": ""})
    return out


class BalancedSampler(unittest.TestCase):
    def test_types_drawn_evenly_when_balanced(self):
        s = Sampler(fake_metas(), 320, "t", balanced=1.0)
        n = collections.Counter(s.pick()[1]["type"] for _ in range(3000))
        self.assertEqual(set(n), {"button", "radio_button", "tab"})
        for t in n:
            self.assertGreater(n[t], 800)  # ~1000 each

    def test_no_centred_crops_without_balance(self):
        s = Sampler(fake_metas(), 320, "t", balanced=0.0)
        self.assertTrue(all(s.pick()[1] is None for _ in range(200)))

    def test_element_lands_inside_the_window(self):
        s = Sampler(fake_metas(), 320, "t", balanced=1.0)
        for _ in range(500):
            m, e = s.pick()
            ox, oy = s.around(e["bbox"], 300)
            cx, cy = (e["bbox"][0] + e["bbox"][2]) / 2 - ox, (e["bbox"][1] + e["bbox"][3]) / 2 - oy
            self.assertTrue(0.1 * 300 - 1 <= cx <= 0.9 * 300 + 1 and 0.1 * 300 - 1 <= cy <= 0.9 * 300 + 1)


class ClassWeights(unittest.TestCase):
    def test_rare_types_weigh_more_mean_one(self):
        w = class_weights(fake_metas(), 0.5)
        self.assertAlmostEqual(float(w.mean()), 1.0, places=5)
        self.assertGreater(float(w[TYPES.index("radio_button")]), float(w[TYPES.index("button")]))
        self.assertTrue(torch.allclose(class_weights(fake_metas(), 0.0), torch.ones(len(TYPES))))

    def test_weighted_loss_is_the_plain_one_with_equal_weights(self):
        g = torch.Generator().manual_seed(0)
        heat = torch.rand(2, len(TYPES), 8, 8, generator=g) * 0.9
        heat[0, 5, 3, 3] = 1.0
        heat[1, 0, 2, 2] = 1.0
        tg = [heat, torch.rand(2, 4, 8, 8, generator=g) * 10 + 1, torch.rand(2, 8, 8, generator=g), torch.zeros(2, 3, 8, 8), torch.ones(2, 3, 8, 8)]
        out = (torch.randn(2, len(TYPES), 8, 8, generator=g), torch.rand(2, 4, 8, 8, generator=g) * 10 + 1, torch.randn(2, 3, 8, 8, generator=g))
        plain = losses(out, tg)[0]
        self.assertAlmostEqual(float(losses(out, tg, torch.ones(len(TYPES)))[0]), float(plain), places=4)
        w = torch.ones(len(TYPES))
        w[5] = 3.0
        self.assertNotAlmostEqual(float(losses(out, tg, w)[0]), float(plain), places=3)


class KeyPoints(unittest.TestCase):
    def test_indicator_arrow_and_centre(self):
        self.assertEqual(keypoint({"type": "checkbox", "bbox": [100, 40, 260, 60]}), (110, 50, 20, 20))
        self.assertEqual(keypoint({"type": "radio_button", "bbox": [100, 40, 260, 60]})[:2], (110, 50))
        self.assertEqual(keypoint({"type": "dropdown", "bbox": [100, 40, 300, 72]})[:2], (284, 56))
        self.assertEqual(keypoint({"type": "button", "bbox": [100, 40, 200, 70]}), (150, 55, 100, 30))
        # A box about as wide as high (a bare indicator) peaks at its centre; without key points every type does.
        self.assertEqual(keypoint({"type": "checkbox", "bbox": [10, 10, 26, 26]})[:2], (18, 18))
        self.assertEqual(keypoint({"type": "checkbox", "bbox": [100, 40, 260, 60]}, keypoints=False)[:2], (180, 50))

    def test_peak_at_the_key_point_and_sides_give_back_the_box(self):
        box = [100, 40, 260, 60]
        heat, sides, boxw, _, _, ign = gaussian_targets([{"type": "checkbox", "bbox": box}], 320, 320)
        self.assertEqual(float(ign.sum()), 0.0)
        y, x = np.unravel_index(int(heat[TYPES.index("checkbox")].argmax()), heat.shape[1:])
        self.assertEqual((int(x), int(y)), (110 // STRIDE, 50 // STRIDE))
        cx, cy = (x + 0.5) * STRIDE, (y + 0.5) * STRIDE
        l, t, r, b = sides[:, y, x]
        self.assertEqual([cx - l, cy - t, cx + r, cy + b], box)
        off = gaussian_targets([{"type": "checkbox", "bbox": box}], 320, 320, keypoints=False)[0]
        y2, x2 = np.unravel_index(int(off[TYPES.index("checkbox")].argmax()), off.shape[1:])
        self.assertEqual(int(x2), 180 // STRIDE)


class Ignored(unittest.TestCase):
    def test_partly_inside_elements_give_no_negative_loss(self):
        ign = gaussian_targets([], 64, 64, ignored=[[0, 0, 32, 16]])[5]
        self.assertEqual(float(ign.sum()), 8 * 4)
        g = torch.Generator().manual_seed(0)
        heat = torch.zeros(1, len(TYPES), 16, 16)
        heat[0, 0, 10, 10] = 1.0
        out = (torch.full((1, len(TYPES), 16, 16), 3.0), torch.ones(1, 4, 16, 16) * 4, torch.zeros(1, 3, 16, 16))
        base = [heat, torch.ones(1, 4, 16, 16) * 4, torch.zeros(1, 16, 16), torch.zeros(1, 3, 16, 16), torch.zeros(1, 3, 16, 16)]
        none = losses(out, base + [torch.zeros(1, 16, 16)])[0]
        part = torch.zeros(1, 16, 16)
        part[0, :4, :8] = 1.0
        self.assertLess(float(losses(out, base + [part])[0]), float(none))  # confident firing there no longer costs
        self.assertAlmostEqual(float(losses(out, base)[0]), float(none), places=5)
        del g


class Augmentation(unittest.TestCase):
    def test_colours_change_shape_and_type_do_not(self):
        s = Sampler(fake_metas(), 64, "aug", augment=True)
        img = (np.arange(64 * 64 * 3) % 251).astype(np.uint8).reshape(64, 64, 3)
        outs = [s.photometric(img) for _ in range(40)]
        self.assertTrue(all(o.shape == img.shape and o.dtype == np.uint8 for o in outs))
        self.assertTrue(any(not np.array_equal(o, img) for o in outs))
        self.assertTrue(any((o.astype(int) + img.astype(int) == 255).all() for o in outs))  # inversion happens


class ArchV2(unittest.TestCase):
    def test_v2_is_larger_exports_and_keeps_the_output_grid(self):
        m = Detector(2.0, "v2").eval()
        self.assertGreater(sum(p.numel() for p in m.parameters()), 4 * sum(p.numel() for p in Detector().parameters()))
        with torch.no_grad():
            heat, box, state = m(torch.zeros(1, 3, 96, 128))
        self.assertEqual(tuple(heat.shape), (1, len(TYPES), 24, 32))
        self.assertEqual(tuple(box.shape), (1, 4, 24, 32))
        with self.assertRaises(ValueError):
            Detector(1.0, "v3")


class WorkerStream(unittest.TestCase):
    """The GPU run's crops: drawn by worker processes from pixels decoded once (no file is read)."""

    def make(self, images):
        return lambda w: Sampler(fake_metas(), 64, "t" + ("" if w is None else f":w{w}"), balanced=0.5, images=images)

    def test_same_seed_same_batches_and_workers_differ(self):
        rng = np.random.default_rng(0)
        images = {m["id"]: rng.integers(0, 255, (480, 640, 3), dtype=np.uint8) for m in fake_metas()}
        first = [next(batches(self.make(images), 4, 2)) for _ in range(2)]
        self.assertTrue(torch.equal(first[0][0], first[1][0]))  # the same stream again
        stream = batches(self.make(images), 4, 2)
        a, b = next(stream)[0], next(stream)[0]  # worker 0's batch, then worker 1's: other seeds
        self.assertEqual((tuple(a.shape), a.dtype), ((4, 64, 64, 3), torch.uint8))  # raw: laid out on the GPU
        self.assertFalse(torch.equal(a, b))
        self.assertEqual(len(first[0][1]), 6)  # heat, box, box weight, state, state mask, ignored

    def test_in_process_stream_reads_the_preloaded_pixels(self):
        images = {m["id"]: np.full((480, 640, 3), 200, np.uint8) for m in fake_metas()}
        x, _ = next(batches(self.make(images), 3, 0))
        self.assertEqual(set(x.flatten().tolist()) - {0.0}, {200.0})  # the screen's grey, or the black outside it


class Index(unittest.TestCase):
    def test_a_screen_counts_when_the_image_its_json_names_is_there(self):
        import json
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "gtk"))
            for sid, image, present in [("a", "a.webp", True), ("b", "b.png", True), ("c", "c.png", False)]:
                with open(os.path.join(d, "gtk", sid + ".json"), "w") as f:
                    json.dump({"id": sid, "image": image, "family": "gtk", "elements": []}, f)
                if present:
                    open(os.path.join(d, "gtk", image), "wb").close()
            self.assertEqual([m["id"] for m in read_index(d)], ["a", "b"])


if __name__ == "__main__":
    unittest.main()

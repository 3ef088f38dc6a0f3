"""Legacy models exported the way published Paddle 2.x models are (used by make_legacy_models.py).

PaddleClas, PaddleOCR, PaddleDetection and PaddleNLP publish inference models made from a
dygraph `paddle.nn.Layer`: dy2static turns its `forward` into a static program and
`paddle.jit.save` writes `NAME.pdmodel` + `NAME.pdiparams`. Such programs differ from
hand-built static ones: dy2static's control flow (`conditional_block` + `select_input` for a
tensor `if`, `while` with the loop state as inputs and outputs, Python lists as tensor
arrays), its helper ops (`assign`, `fill_constant` of loop counters, `shape` + `slice` for
dynamic sizes), the layers' own kernels (`rnn` for `paddle.nn.LSTM`, `hard_swish`,
`depthwise_conv2d`), and variable names of its own.

Each function here is called with the paddle module (2.6.2, dygraph mode; the layers use
the module-level import, the same module) and returns
`(description, layer, input_specs, shapes)`: the layer to export, its
`paddle.static.InputSpec`s, and the concrete shape of each input for the reference run
(the specs' `None` dims filled in). Widths are tiny so the parameter files stay small.
The layers live at module level: dy2static re-reads `forward`'s source and resolves its
names in the module's globals.
"""

import paddle
from paddle import nn
from paddle.nn import functional as F


def _conv_bn(cin, cout, k=3, stride=1, act=True):
    layers = [nn.Conv2D(cin, cout, k, stride=stride, padding=k // 2, bias_attr=False),
              nn.BatchNorm2D(cout)]
    if act:
        layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def e_mobilenet_v3(_paddle):
    layer = paddle.vision.models.mobilenet_v3_small(scale=0.35, num_classes=10)
    spec = paddle.static.InputSpec([None, 3, 32, 32], "float32", "x")
    return ("paddle.vision MobileNetV3-small (x0.35) exported by paddle.jit.save: hardswish, "
            "squeeze-excitation, depthwise conv", layer, [spec], [[2, 3, 32, 32]])


def e_shufflenet_v2(_paddle):
    layer = paddle.vision.models.shufflenet_v2_x0_25(num_classes=10)
    spec = paddle.static.InputSpec([None, 3, 32, 32], "float32", "x")
    return ("paddle.vision ShuffleNetV2 x0.25 exported by paddle.jit.save: channel shuffle "
            "(reshape/transpose), split, concat", layer, [spec], [[2, 3, 32, 32]])


def e_ocr_det(_paddle):
    class DBLite(nn.Layer):
        """A text detector shaped like PaddleOCR's DB: backbone, FPN neck, transposed-conv head."""

        def __init__(self):
            super().__init__()
            self.stem = _conv_bn(3, 8, stride=2)
            self.c2 = _conv_bn(8, 16, stride=2)
            self.c3 = _conv_bn(16, 24, stride=2)
            self.c4 = _conv_bn(24, 32, stride=2)
            self.lat = nn.LayerList([nn.Conv2D(c, 16, 1, bias_attr=False) for c in (16, 24, 32)])
            self.smooth = nn.LayerList([nn.Conv2D(16, 4, 3, padding=1, bias_attr=False)
                                        for _ in range(3)])
            self.head = nn.Sequential(
                _conv_bn(12, 4),
                nn.Conv2DTranspose(4, 4, 2, stride=2), nn.BatchNorm2D(4), nn.ReLU(),
                nn.Conv2DTranspose(4, 1, 2, stride=2))

        def forward(self, x):
            c2 = self.c2(self.stem(x))
            c3 = self.c3(c2)
            c4 = self.c4(c3)
            p4 = self.lat[2](c4)
            p3 = self.lat[1](c3) + F.upsample(p4, scale_factor=2, mode="nearest", align_mode=1)
            p2 = self.lat[0](c2) + F.upsample(p3, scale_factor=2, mode="nearest", align_mode=1)
            f4 = F.upsample(self.smooth[2](p4), scale_factor=4, mode="nearest", align_mode=1)
            f3 = F.upsample(self.smooth[1](p3), scale_factor=2, mode="nearest", align_mode=1)
            fuse = paddle.concat([f4, f3, self.smooth[0](p2)], axis=1)
            return F.sigmoid(self.head(fuse))

    spec = paddle.static.InputSpec([None, 3, None, None], "float32", "x")
    return ("a DB-style text detector (PaddleOCR det): dynamic H and W, FPN with nearest "
            "upsampling, conv2d_transpose head", DBLite(), [spec], [[1, 3, 64, 96]])


def e_ocr_rec(_paddle):
    class CRNNLite(nn.Layer):
        """A text recogniser shaped like PaddleOCR's CRNN: conv backbone, BiLSTM, CTC head."""

        def __init__(self):
            super().__init__()
            self.backbone = nn.Sequential(
                _conv_bn(3, 8), nn.MaxPool2D(2, 2),
                _conv_bn(8, 16), nn.MaxPool2D((2, 1), (2, 1)),
                _conv_bn(16, 16), nn.MaxPool2D((4, 1), (4, 1)))
            self.rnn = nn.LSTM(16, 12, num_layers=2, direction="bidirect")
            self.fc = nn.Linear(24, 11)

        def forward(self, x):
            f = self.backbone(x)
            f = paddle.squeeze(f, axis=2)
            f = paddle.transpose(f, [0, 2, 1])
            f, _ = self.rnn(f)
            return F.softmax(self.fc(f), axis=2)

    spec = paddle.static.InputSpec([None, 3, 16, None], "float32", "x")
    return ("a CRNN-style text recogniser (PaddleOCR rec): dynamic width, 2-layer BiLSTM "
            "(rnn op), softmax over classes", CRNNLite(), [spec], [[2, 3, 16, 40]])


def e_text_encoder(_paddle):
    class TextEncoder(nn.Layer):
        """A PaddleNLP-style encoder: token + position embeddings, padding mask, pooler."""

        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(50, 32)
            self.pos = nn.Embedding(64, 32)
            self.norm = nn.LayerNorm(32)
            layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1, activation="gelu")
            self.encoder = nn.TransformerEncoder(layer, 2)
            self.pool = nn.Linear(32, 32)
            self.cls = nn.Linear(32, 3)

        def forward(self, ids):
            seq = paddle.shape(ids)[1]
            pos = paddle.arange(seq, dtype="int64").unsqueeze(0)
            h = self.norm(self.tok(ids) + self.pos(pos))
            mask = paddle.cast(ids == 0, "float32").unsqueeze([1, 2]) * -1e4
            h = self.encoder(h, mask)
            pooled = paddle.tanh(self.pool(h[:, 0]))
            return F.softmax(self.cls(pooled), axis=-1), h

    spec = paddle.static.InputSpec([None, None], "int64", "ids")
    return ("a PaddleNLP-style text encoder: dynamic batch and length, arange positions, "
            "padding mask, 2 transformer layers, pooler", TextEncoder(), [spec], [[2, 7]])


def e_dy2static_flow(_paddle):
    class Flow(nn.Layer):
        """Python control flow on tensors, as dy2static converts it."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x, n):
            if paddle.mean(x) > 0:
                y = self.fc(x)
            else:
                y = x - 1.0
            i = paddle.zeros([1], "int64")
            s = paddle.zeros_like(y)
            while i < n:
                s = s + y * 0.5
                if paddle.max(s) > 4.0:
                    s = s * 0.25
                i += 1
            for _ in range(2):
                s = paddle.tanh(s)
            return s, i

    specs = [paddle.static.InputSpec([None, 4], "float32", "x"),
             paddle.static.InputSpec([1], "int64", "n")]
    return ("Python if/while on tensors through dy2static: conditional_block + select_input, "
            "while with an if inside, loop counters", Flow(), specs, [[2, 4], [1]])


EXPORTED = {
    "lg_jit_mobilenet_v3": e_mobilenet_v3,
    "lg_jit_shufflenet_v2": e_shufflenet_v2,
    "lg_jit_ocr_det": e_ocr_det,
    "lg_jit_ocr_rec": e_ocr_rec,
    "lg_jit_text_encoder": e_text_encoder,
    "lg_jit_dy2static_flow": e_dy2static_flow,
}

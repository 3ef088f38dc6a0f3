"""The networks of scripts/paddle_check_zoo.py, built with Paddle 3.3.1.

`ZOO` maps a model name to `(build, inputs)`: `build()` returns a random-initialised
`paddle.nn.Layer` (call `paddle.seed` first for a fixed one), `inputs` lists the model's
inputs as `(name, shape without the batch dim, kind)`, the batch dim being dynamic (-1)
in the saved model; a -1 in `shape` is dynamic too, 3 + 2 x the batch size in the
runs. Kinds: `float` (standard normal), `tokens:V` (int64 ids below V),
`mask` (an additive float attention mask, -1e4 on the padded key positions), `count:N`
(int64 N, of the shape given: no batch dim).

paddle.vision.models at the smallest input size each allows (alexnet's and googlenet's
classifier heads need 224 and 192), then networks of Paddle's own nn layers, each
written for the op patterns `pir opt -p inference` rewrites: `matmul`+`add` (Linear,
on 2-D and 3-D inputs: `fc` with `in_num_col_dims` 1 and 2), conv+batch norm (with and
without a conv bias, BatchNorm1D after Linear), transposes and reshapes around
matmuls, `x * sigmoid(x)`, scales, squeeze/unsqueeze, dropout in both modes, in-place
activations, a batch size read at run time (`expand` of a class token to the batch).
"""

import math

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.vision.models as vm


def vision(name, size, **kwargs):
    """A paddle.vision.models network at input 3 x size x size."""
    return (lambda: getattr(vm, name)(pretrained=False, **kwargs), [("x", [3, size, size], "float")])


class TransformerText(nn.Layer):
    """Token embedding + position embedding, a TransformerEncoder with an attention
    mask input, mean pooling and a Linear classifier."""

    def __init__(self, vocab=1000, d=64, heads=4, layers=2, length=16, pre_norm=False, act="relu"):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = self.create_parameter([1, length, d])
        layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.1, activation=act,
                                           normalize_before=pre_norm)
        self.encoder = nn.TransformerEncoder(layer, layers,
                                             norm=nn.LayerNorm(d) if pre_norm else None)
        self.head = nn.Linear(d, 10)

    def forward(self, tokens, mask):
        h = self.embed(tokens) + self.pos
        h = self.encoder(h, src_mask=mask)
        return self.head(h.mean(axis=1))


class TransformerFloat(nn.Layer):
    """A TransformerEncoder on float features with an attention mask input, per-position
    Linear head (a 3-D matmul + add)."""

    def __init__(self, d=64, heads=4, layers=2):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu")
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d, 8)

    def forward(self, x, mask):
        return self.head(self.encoder(x, src_mask=mask))


class RnnText(nn.Layer):
    """Embedding, a two-layer bidirectional LSTM or GRU, the last step's features and a
    Linear+tanh+Linear head."""

    def __init__(self, cell, vocab=1000, d=32, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.rnn = cell(d, hidden, num_layers=2, direction="bidirect")
        self.fc1 = nn.Linear(2 * hidden, hidden)
        self.fc2 = nn.Linear(hidden, 5)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.fc2(paddle.tanh(self.fc1(out[:, -1, :])))


def conv_bn(cin, cout, bias=False, **kw):
    return nn.Sequential(nn.Conv2D(cin, cout, 3, padding=1, bias_attr=None if bias else False, **kw),
                         nn.BatchNorm2D(cout), nn.ReLU())


class UNet(nn.Layer):
    """Two down steps (conv+bn+relu, max pool), a bottleneck, two up steps
    (conv_transpose, then bilinear interpolate), skip concats, a 1x1 conv head."""

    def __init__(self, c=8):
        super().__init__()
        self.d1 = conv_bn(3, c)
        self.d2 = conv_bn(c, 2 * c, bias=True)
        self.mid = conv_bn(2 * c, 4 * c)
        self.up2 = nn.Conv2DTranspose(4 * c, 2 * c, 2, stride=2)
        self.u2 = conv_bn(4 * c, 2 * c)
        self.u1 = conv_bn(2 * c + c, c)
        self.head = nn.Conv2D(c, 2, 1)

    def forward(self, x):
        s1 = self.d1(x)
        s2 = self.d2(F.max_pool2d(s1, 2))
        m = self.mid(F.max_pool2d(s2, 2))
        u2 = self.u2(paddle.concat([self.up2(m), s2], axis=1))
        u1 = F.interpolate(u2, scale_factor=2, mode="bilinear", align_corners=False)
        u1 = self.u1(paddle.concat([u1, s1], axis=1))
        return F.sigmoid(self.head(u1))


class MixerBlock(nn.Layer):
    def __init__(self, tokens, d):
        super().__init__()
        self.n1 = nn.LayerNorm(d)
        self.tok1, self.tok2 = nn.Linear(tokens, 2 * tokens), nn.Linear(2 * tokens, tokens)
        self.n2 = nn.LayerNorm(d)
        self.ch1, self.ch2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)

    def forward(self, x):
        y = self.n1(x).transpose([0, 2, 1])
        x = x + self.tok2(F.gelu(self.tok1(y))).transpose([0, 2, 1])
        return x + self.ch2(F.gelu(self.ch1(self.n2(x)), approximate=True))


class Mixer(nn.Layer):
    """MLP-Mixer: a patch conv, flatten + transpose to tokens, LayerNorm+GELU MLP blocks
    over tokens (between transposes) and channels, mean over tokens, Linear head."""

    def __init__(self, d=48, patch=8, size=32, blocks=2):
        super().__init__()
        tokens = (size // patch) ** 2
        self.patch = nn.Conv2D(3, d, patch, stride=patch)
        self.blocks = nn.LayerList([MixerBlock(tokens, d) for _ in range(blocks)])
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, 10)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose([0, 2, 1])
        for b in self.blocks:
            x = b(x)
        return self.head(self.norm(x).mean(axis=1))


class ViT(nn.Layer):
    """A small ViT: patch conv, a class token expanded to the run-time batch, position
    embedding, pre-norm encoder layers written out (q, k, v Linears, reshape +
    transpose to heads, a scale before matmul with transpose_y, softmax, dropout),
    LayerNorm+GELU MLP, the class token's features to a Linear head."""

    def __init__(self, d=48, heads=4, patch=8, size=32, depth=2):
        super().__init__()
        self.heads, self.d = heads, d
        n = (size // patch) ** 2
        self.patch = nn.Conv2D(3, d, patch, stride=patch)
        self.cls = self.create_parameter([1, 1, d])
        self.pos = self.create_parameter([1, n + 1, d])
        self.layers = nn.LayerList()
        for _ in range(depth):
            self.layers.append(nn.LayerList([
                nn.LayerNorm(d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d),
                nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.Linear(2 * d, d), nn.Dropout(0.1)]))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, 10)

    def heads_of(self, t):
        b, n = t.shape[0], t.shape[1]
        return t.reshape([b, n, self.heads, self.d // self.heads]).transpose([0, 2, 1, 3])

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose([0, 2, 1])
        cls = self.cls.expand([x.shape[0], -1, -1])
        x = paddle.concat([cls, x], axis=1) + self.pos
        for n1, q, k, v, o, n2, f1, f2, drop in self.layers:
            h = n1(x)
            qh, kh, vh = self.heads_of(q(h)), self.heads_of(k(h)), self.heads_of(v(h))
            att = F.softmax(paddle.matmul(qh * (self.d // self.heads) ** -0.5, kh, transpose_y=True))
            ctx = paddle.matmul(drop(att), vh).transpose([0, 2, 1, 3])
            x = x + o(ctx.reshape([0, 0, self.d]))
            x = x + drop(f2(F.gelu(f1(n2(x)))))
        return self.head(self.norm(x)[:, 0])


class Patterns(nn.Layer):
    """Op patterns the passes touch, one after another on a feature vector and a small
    image: Linear + BatchNorm1D (fold into matmul), x * sigmoid(x) (silu), scale then
    matmul, transposes that cancel and matmul of a transpose (transpose fusions),
    unsqueeze/squeeze, dropout downscale_in_infer (a scale) and upscale_in_train
    (identity), in-place relu_/tanh_, a cast to the same dtype, scale by one, conv with
    a bias before batch norm, a depthwise and a grouped conv, hardswish, flatten."""

    def __init__(self, d=32):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.bn1 = nn.BatchNorm1D(d)
        self.fc2 = nn.Linear(d, d, bias_attr=False)
        self.w = self.create_parameter([d, d])
        self.conv = nn.Conv2D(3, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2D(16)
        self.dw = nn.Conv2D(16, 16, 3, padding=1, groups=16, bias_attr=False)
        self.bn3 = nn.BatchNorm2D(16)
        self.gc = nn.Conv2D(16, 32, 3, stride=2, padding=1, groups=4)
        self.fc3 = nn.Linear(32 * 8 * 8 + d, 10)

    def forward(self, v, img):
        h = self.bn1(self.fc1(v))
        h = h * F.sigmoid(h)
        h = F.dropout(h, 0.3, training=False, mode="downscale_in_infer")
        h = paddle.matmul(paddle.scale(h, 0.5), self.w)
        h = paddle.matmul(h.transpose([1, 0]).transpose([1, 0]), self.fc2.weight.transpose([1, 0]),
                          transpose_y=True)
        h = F.relu_(h).unsqueeze(1).squeeze(1)
        h = paddle.tanh_(paddle.scale(h.astype("float32"), 1.0))
        h = F.dropout(h, 0.5, training=False)
        y = F.relu(self.bn2(self.conv(img)))
        y = F.hardswish(self.bn3(self.dw(y)))
        y = F.relu6(self.gc(y)).flatten(1)
        return self.fc3(paddle.concat([y, h], axis=1))


class EdgeLinear(nn.Layer):
    """Near misses of the matmul fusions: scales with a bias (before and after the scale)
    after a matmul by a weight, a scale by one with a bias, a scale pair, an add of a
    full [rows, cols] parameter (not a bias) and an add with the bias first, a [1, N]
    bias, x * sigmoid(y) and sigmoid(x) * x, transposes that compose to neither the
    identity nor a last-two-axes swap, a parameter [1, 1, N] broadcast against a rank-2
    value (which raises the rank), Linear + BatchNorm1D."""

    def __init__(self, d=16, rows=6):
        super().__init__()
        self.w1 = self.create_parameter([d, d])
        self.w2 = self.create_parameter([d, d])
        self.plane = self.create_parameter([rows, d])
        self.row_bias = self.create_parameter([1, d])
        self.p3 = self.create_parameter([1, 1, d])
        self.fc = nn.Linear(d, d)
        self.bn = nn.BatchNorm1D(d)

    def forward(self, v, seq):
        a = paddle.scale(paddle.matmul(v, self.w1), 0.5, bias=0.3)
        b = paddle.scale(paddle.matmul(v, self.w2), 2.0, bias=0.3, bias_after_scale=False)
        c = paddle.scale(paddle.scale(a + b, 2.0, bias=1.0), 3.0, bias=-1.0, bias_after_scale=False)
        c = paddle.scale(c, 1.0, bias=0.25)
        g = self.bn(self.fc(c * F.sigmoid(a)))
        g = F.sigmoid(g) * g
        s = paddle.matmul(seq, self.w1) + self.plane
        s = F.relu(self.row_bias + paddle.matmul(seq, self.w2))
        s = s + (paddle.matmul(seq, self.w1) + self.plane)
        t = s.transpose([0, 2, 1]).transpose([2, 0, 1])
        u = paddle.matmul(t.transpose([0, 2, 1]), t)
        w = (g + self.p3).sum(axis=0)
        return w, u


class EdgeEinsum(nn.Layer):
    """Two-operand einsums: plain, batched, with the second operand transposed, with
    heads, and one that is no matrix product."""

    def __init__(self, d=16):
        super().__init__()
        self.w = self.create_parameter([d, d])

    def forward(self, x, y):
        a = paddle.einsum("bid,de->bie", x, self.w)
        b = paddle.einsum("bid,bjd->bij", x, y)
        h = x.reshape([0, 0, 4, 4])
        c = paddle.einsum("bihd,bjhd->bhij", h, y.reshape([0, 0, 4, 4]))
        d = paddle.einsum("bid,bid->bi", x, y)
        return a, b, c, d


class EdgeLayout(nn.Layer):
    """Channel-last convolutions, batch norm and pooling; a grouped conv_transpose with
    batch norm; slices of a transposed tensor."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1, data_format="NHWC")
        self.b1 = nn.BatchNorm2D(8, data_format="NHWC")
        self.c2 = nn.Conv2D(8, 8, 3, padding=1, bias_attr=False, data_format="NHWC")
        self.b2 = nn.BatchNorm2D(8, data_format="NHWC")
        self.up = nn.Conv2DTranspose(8, 8, 2, stride=2, groups=2)
        self.b3 = nn.BatchNorm2D(8)

    def forward(self, x):
        h = F.relu(self.b1(self.c1(x.transpose([0, 2, 3, 1]))))
        h = F.max_pool2d(h, 2, data_format="NHWC")
        h = F.relu(self.b2(self.c2(h)))
        h = h.transpose([0, 3, 1, 2])
        u = self.b3(self.up(h))
        s = u.transpose([0, 2, 3, 1])[:, 2:10, :, 1:5]
        return s.transpose([0, 3, 1, 2]), u


class Loop(nn.Layer):
    """A while loop (a tensor bound) whose body has a loop-invariant matmul by a weight,
    an in-place-able activation and a scale."""

    def __init__(self, d=16):
        super().__init__()
        self.w = self.create_parameter([d, d])
        self.fc = nn.Linear(d, d)

    def forward(self, x, n):
        i = paddle.zeros([1], "int64")
        h = x
        while i < n:
            h = F.relu(self.fc(h) + paddle.matmul(x, self.w)) * 0.5
            i = i + 1
        return h


class EdgeDynamic(nn.Layer):
    """A dynamic sequence length besides the batch: position ids from arange of the
    run-time length, shapes read at run time for reshapes (to [batch * length, d] and
    back), a full of the run-time [batch, length], an expand to the batch, a concat of
    the batch with itself reshaped by the single batch size."""

    def __init__(self, d=16, vocab=50):
        super().__init__()
        self.pos = nn.Embedding(64, d)
        self.fc = nn.Linear(d, d)
        self.token = self.create_parameter([1, 1, d])

    def forward(self, x):
        b, n = x.shape[0], x.shape[1]
        h = x + self.pos(paddle.arange(n).unsqueeze(0))
        flat = self.fc(h.reshape([b * n, h.shape[2]]))
        h = flat.reshape([b, n, -1])
        ones = paddle.full([b, n], 1.0)
        h = h * ones.unsqueeze(-1)
        h = paddle.concat([self.token.expand([b, -1, -1]), h], axis=1)
        twice = paddle.concat([h, h], axis=0)
        pairs = twice.reshape([b, -1])
        return h, pairs


class EdgeInplace(nn.Layer):
    """Values an in-place op must not overwrite: one also returned, an input read again,
    a view of an input (reshape, unsqueeze) read with the input, a value read by two
    branches, a loop-carried value."""

    def __init__(self, d=16):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        a = self.fc(x)
        b = F.relu(a)
        r = x.reshape([0, 4, -1])
        s = F.sigmoid(r).reshape([0, -1])
        u = paddle.tanh(x.unsqueeze(1)).squeeze(1)
        c = paddle.exp(a) * 0.1 + paddle.abs(a)
        d = F.relu(x) + x
        return a, b, s + u + c + d


class EdgeConstants(nn.Layer):
    """Values computed in forward from constants only, which constant folding computes
    with pir's evaluator instead of Paddle's kernels: a sinusoidal position encoding
    (arange, exp, sin, cos, strided writes), a causal mask (triu of -inf), round of
    halves, floor division and remainder of negative integers, casts of negative floats
    to integers, cumsum and cumprod, sort and top-k with ties, linspace, eye, an
    unbiased std, erf, log1p, rsqrt, where, gather, pow. Each is added to the input, so
    a value the evaluator gets wrong changes an output."""

    def forward(self, x):
        n, d = 8, 16
        pos = paddle.arange(0, n, dtype="float32").unsqueeze(1)
        div = paddle.exp(paddle.arange(0, d, 2, dtype="float32") * (-math.log(10000.0) / d))
        pe = paddle.zeros([n, d])
        pe[:, 0::2] = paddle.sin(pos * div)
        pe[:, 1::2] = paddle.cos(pos * div)
        causal = paddle.triu(paddle.full([n, n], float("-inf")), 1)
        att = F.softmax(paddle.matmul(x, x, transpose_y=True) * 0.1 + causal, axis=-1)
        h = paddle.matmul(att, x) + pe
        halves = paddle.to_tensor([0.5, 1.5, 2.5, -0.5, -2.5, 3.5, -3.5, 0.49999997])
        ints = paddle.to_tensor([-7, 7, -8, 9, -1, 0, 5, -5], dtype="int64")
        negs = paddle.to_tensor([-1.7, 1.7, -0.2, 2.9, -2.9, 0.0, 126.6, -126.6])
        v = paddle.to_tensor([3.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 1.0])
        sorted_v = paddle.sort(v)
        top, top_i = paddle.topk(v, 3)
        arg = paddle.argsort(v).astype("float32")
        parts = [
            paddle.round(halves),
            (ints // 2).astype("float32"), (ints % 3).astype("float32"),
            paddle.floor_divide(ints, paddle.full([8], -3, "int64")).astype("float32"),
            paddle.remainder(ints, paddle.full([8], -3, "int64")).astype("float32"),
            negs.astype("int32").astype("float32"), negs.astype("uint8").astype("float32"),
            paddle.cumsum(v), paddle.cumprod(v, dim=0), sorted_v, arg,
            paddle.concat([top, top_i.astype("float32"), paddle.zeros([2])]),
            paddle.linspace(-1.0, 1.0, 8), paddle.eye(8).sum(axis=0),
            paddle.std(v, unbiased=True).expand([8]), paddle.erf(negs), paddle.log1p(paddle.abs(negs)),
            paddle.rsqrt(v), paddle.where(v > 1.5, v, -v), paddle.gather(v, paddle.to_tensor([7, 0, 3, 3, 1, 2, 6, 5])),
            paddle.pow(v, 2.5), paddle.pow(paddle.to_tensor(2.0), v), paddle.sign(negs), paddle.floor(negs),
            paddle.ceil(negs), paddle.clip(negs, -1.0, 1.0), paddle.logsumexp(v).expand([8]),
            paddle.nn.functional.softplus(negs), paddle.nn.functional.gelu(negs),
            paddle.nn.functional.gelu(negs, approximate=True), paddle.nn.functional.silu(negs),
            paddle.nn.functional.hardswish(negs), paddle.nn.functional.elu(negs), paddle.nn.functional.mish(negs),
        ]
        table = paddle.stack(parts)  # [parts, 8]
        return h, x[:, :1, :8] + table.unsqueeze(0)


class EdgeViews(nn.Layer):
    """In-place hazards through views and broadcasts: an input read through a reshape,
    a flatten and an unsqueeze by activations and then itself, a broadcast add whose
    first operand is smaller than its result, a copy written after the copied value is
    read again."""

    def __init__(self, d=16):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x, seq):
        r = F.relu(x.reshape([0, 4, -1]))
        f = paddle.tanh(x.unsqueeze(-1).flatten(1))
        small = F.relu(self.fc(x)).unsqueeze(1)
        wide = small + seq
        c = paddle.assign(wide)
        c = F.sigmoid(c)
        return r.flatten(1) + f, wide * 2.0, c + wide, x * 3.0


class EdgeMisc(nn.Layer):
    """Layers beyond the zoo's: Conv1D + BatchNorm1D + PReLU, GroupNorm + SiLU,
    InstanceNorm, a reflect-padded conv, PixelShuffle, LeakyReLU, adaptive pooling to
    3x3, nearest interpolation, flip, hardsigmoid, a 3-D conv with BatchNorm3D."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1D(3, 8, 3, padding=1)
        self.b1 = nn.BatchNorm1D(8)
        self.act1 = nn.PReLU(8)
        self.c2 = nn.Conv2D(3, 8, 3, padding=1, padding_mode="reflect")
        self.gn = nn.GroupNorm(4, 8)
        self.inorm = nn.InstanceNorm2D(8)
        self.c3 = nn.Conv2D(8, 16, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
        self.c4 = nn.Conv3D(1, 4, 3, padding=1)
        self.b4 = nn.BatchNorm3D(4)

    def forward(self, img):
        seq = img.mean(axis=2)  # [B, 3, W]
        s = self.act1(self.b1(self.c1(seq)))
        h = F.silu(self.gn(self.c2(img)))
        h = F.leaky_relu(self.inorm(h), 0.1)
        h = self.shuffle(self.c3(h))  # [B, 4, 2H, 2W]
        p = F.adaptive_avg_pool2d(h, 3)
        u = F.interpolate(p, scale_factor=2, mode="nearest")
        u = F.hardsigmoid(paddle.flip(u, axis=[2, 3]))
        v = F.relu(self.b4(self.c4(img[:, :1].unsqueeze(1))))
        return s, u, v.mean(axis=[2, 3, 4])


class GreedyDecoder(nn.Layer):
    """Seq2seq greedy decoding in a while loop: a GRU encoder, then per step a GRUCell
    on the last token's embedding, an attention over the encoder states, argmax, the
    token appended to a growing sequence (a loop-carried value whose length changes),
    finished flags, and an early exit when every sequence has ended."""

    def __init__(self, vocab=40, d=24, max_len=6):
        super().__init__()
        self.max_len = max_len
        self.embed = nn.Embedding(vocab, d)
        self.encoder = nn.GRU(d, d)
        self.cell = nn.GRUCell(d, d)
        self.att = nn.Linear(d, d)
        self.out = nn.Linear(2 * d, vocab)

    def forward(self, src):
        enc, h = self.encoder(self.embed(src))
        h = h[0]
        keys = self.att(enc)  # loop-invariant
        token = paddle.zeros([src.shape[0]], "int64")
        seq = token.unsqueeze(1)
        finished = paddle.zeros([src.shape[0]], "bool")
        step = paddle.zeros([1], "int64")
        while step < self.max_len and not paddle.all(finished):
            _, h = self.cell(self.embed(token), h)
            score = F.softmax(paddle.matmul(keys, h.unsqueeze(-1)).squeeze(-1), axis=-1)
            ctx = (score.unsqueeze(-1) * enc).sum(axis=1)
            logits = self.out(paddle.concat([h, ctx], axis=-1))
            token = paddle.argmax(logits, axis=-1)
            token = paddle.where(finished, paddle.zeros_like(token), token)
            seq = paddle.concat([seq, token.unsqueeze(1)], axis=1)
            finished = paddle.logical_or(finished, token == 1)
            step = step + 1
        return seq, h


class Detection(nn.Layer):
    """Detection heads' ops: prior boxes of a feature map, box decoding, RoI align of
    proposals, YOLO boxes."""

    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2D(3, 8, 3, stride=4, padding=1)
        self.head = nn.Conv2D(8, 3 * 7, 1)  # 3 anchors x (5 + 2 classes)
        self.reg = nn.Conv2D(8, 2 * 4, 1)  # 2 priors per place

    def forward(self, img):
        feat = F.relu(self.backbone(img))  # [B, 8, 8, 8] for 32x32
        box, var = paddle.vision.ops.prior_box(feat, img, min_sizes=[8.0], aspect_ratios=[1.0, 2.0],
                                               steps=[4.0, 4.0], clip=True)
        prior = box.reshape([-1, 4])
        deltas = self.reg(feat).transpose([0, 2, 3, 1]).reshape([0, -1, 4])
        decoded = paddle.vision.ops.box_coder(prior, var.reshape([-1, 4]), deltas,
                                              code_type="decode_center_size", box_normalized=True)
        rois = paddle.to_tensor([[0.0, 0.0, 16.0, 16.0], [4.0, 8.0, 28.0, 30.0]])
        pooled = paddle.vision.ops.roi_align(feat[:1], rois, paddle.to_tensor([2], "int32"), 2,
                                             spatial_scale=0.25)
        yb, ys = paddle.vision.ops.yolo_box(self.head(feat), paddle.full([img.shape[0], 2], 32, "int32"),
                                            anchors=[4, 5, 8, 10, 12, 14], class_num=2, conf_thresh=0.01,
                                            downsample_ratio=4)
        return decoded, pooled, yb, ys


ZOO = {
    "resnet18": vision("resnet18", 64),
    "resnet50": vision("resnet50", 64),
    "resnext50_32x4d": vision("resnext50_32x4d", 64),
    "mobilenet_v1": vision("mobilenet_v1", 64),
    "mobilenet_v2": vision("mobilenet_v2", 64),
    "mobilenet_v3_small": vision("mobilenet_v3_small", 64),
    "mobilenet_v3_large": vision("mobilenet_v3_large", 64),
    "shufflenet_v2_x0_25": vision("shufflenet_v2_x0_25", 64),
    "shufflenet_v2_swish": vision("shufflenet_v2_swish", 64),
    "squeezenet1_1": vision("squeezenet1_1", 64),
    "densenet121": vision("densenet121", 64),
    "googlenet": vision("googlenet", 192),
    "inception_v3": vision("inception_v3", 96),
    "vgg11": vision("vgg11", 64),
    "alexnet": vision("alexnet", 224),
    "transformer_text": (lambda: TransformerText(), [("tokens", [16], "tokens:1000"), ("mask", [1, 16, 16], "mask")]),
    "transformer_prenorm_gelu": (lambda: TransformerText(pre_norm=True, act="gelu"),
                                 [("tokens", [16], "tokens:1000"), ("mask", [1, 16, 16], "mask")]),
    "transformer_float": (lambda: TransformerFloat(), [("x", [12, 64], "float"), ("mask", [4, 12, 12], "mask")]),
    "lstm_text": (lambda: RnnText(nn.LSTM), [("tokens", [20], "tokens:1000")]),
    "gru_text": (lambda: RnnText(nn.GRU), [("tokens", [20], "tokens:1000")]),
    "unet": (lambda: UNet(), [("x", [3, 32, 32], "float")]),
    "mixer": (lambda: Mixer(), [("x", [3, 32, 32], "float")]),
    "vit": (lambda: ViT(), [("x", [3, 32, 32], "float")]),
    "patterns": (lambda: Patterns(), [("v", [32], "float"), ("img", [3, 16, 16], "float")]),
    "edge_linear": (lambda: EdgeLinear(), [("v", [16], "float"), ("seq", [6, 16], "float")]),
    "edge_einsum": (lambda: EdgeEinsum(), [("x", [6, 16], "float"), ("y", [6, 16], "float")]),
    "edge_layout": (lambda: EdgeLayout(), [("x", [3, 16, 16], "float")]),
    "loop": (lambda: Loop(), [("x", [16], "float"), ("n", [1], "count:4")]),
    "edge_dynamic": (lambda: EdgeDynamic(), [("x", [-1, 16], "float")]),
    "edge_inplace": (lambda: EdgeInplace(), [("x", [16], "float")]),
    "edge_constants": (lambda: EdgeConstants(), [("x", [8, 16], "float")]),
    "edge_views": (lambda: EdgeViews(), [("x", [16], "float"), ("seq", [6, 16], "float")]),
    "edge_misc": (lambda: EdgeMisc(), [("img", [3, 16, 16], "float")]),
    "greedy_decoder": (lambda: GreedyDecoder(), [("src", [7], "tokens:40")]),
    "detection": (lambda: Detection(), [("img", [3, 32, 32], "float")]),
}

//! The reader's walk over blocks, ops, types and attributes as JSON
//! values: the whole-document path, and the pieces the streamed path
//! shares with it (value ids, op names, parameter ops, patches).

use super::*;

impl<'a> Reader<'_, 'a> {
    /// Tells [`Reader::release`] that the reader has gone past `offset`, when
    /// that is a step ([`threads::Plan::release_step`]) beyond what it was
    /// told last.
    pub(super) fn went_past(&mut self, offset: usize) {
        if offset >= self.released_to.saturating_add(self.plan.release_step) {
            (self.release)(self.released_to..offset);
            self.released_to = offset;
        }
    }

    /// `text` as a slice of the file, when it is one (the JSON of a patched op is not):
    /// only such slices serve as cache keys.
    pub(super) fn in_input(&self, text: &str) -> Option<&'a str> {
        let start = (text.as_ptr() as usize).checked_sub(self.input.as_ptr() as usize)?;
        self.input.get(start..start.checked_add(text.len())?)
    }

    pub(super) fn read_block(
        &mut self,
        block_json: JsonValue<'_>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        serial::field(block_json, "#", path)?;
        self.read_block_args(serial::field(block_json, "args", path)?, block, path)?;
        if let Some(kwargs) = block_json.get("kwargs") {
            self.read_block_kwargs(kwargs, block, path)?;
        }
        let ops_path = path.key("ops");
        for (i, op_json) in
            serial::array(serial::field(block_json, "ops", path)?, &ops_path)?.enumerate()
        {
            let op = self.read_op(op_json, &ops_path.index(i))?;
            self.program.append_op(block, op);
        }
        Ok(())
    }

    /// A block's `args` (its path is `path.args`).
    pub(super) fn read_block_args(
        &mut self,
        args: JsonValue<'_>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        let args_path = path.key("args");
        for (i, arg) in serial::array(args, &args_path)?.enumerate() {
            let apath = args_path.index(i);
            let id = serial::int(serial::field(arg, "#", &apath)?, &apath.key("#"))?;
            let ty = self.read_type(serial::field(arg, "TT", &apath)?, &apath.key("TT"))?;
            let v = self.program.add_block_arg(block, ty);
            self.bind(id, v, &apath.key("#"))?;
        }
        Ok(())
    }

    /// A block's `kwargs` (its path is `path.kwargs`).
    pub(super) fn read_block_kwargs(
        &mut self,
        kwargs: JsonValue<'_>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        let kw_path = path.key("kwargs");
        for (i, kw) in serial::array(kwargs, &kw_path)?.enumerate() {
            let kpath = kw_path.index(i);
            let id = serial::int(serial::field(kw, "#", &kpath)?, &kpath.key("#"))?;
            let ty = serial::decode_type(
                &self.ctx,
                serial::field(kw, "TT", &kpath)?,
                &kpath.key("TT"),
            )?;
            // Paddle 3.3's writer stores a copy of the positional args here, without names;
            // such entries get the argument's id as name so nothing is lost.
            let name = match kw.get("key") {
                Some(k) => serial::string(k, &kpath.key("key"))?.into_owned(),
                None => format!("arg{}", id.unsigned_abs()),
            };
            let name = self.ctx.symbol(&name);
            let v = self.program.add_block_kwarg(block, name, ty);
            self.bind(id, v, &kpath.key("#"))?;
        }
        Ok(())
    }

    pub(super) fn bind(
        &mut self,
        id: i64,
        v: ValueId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        self.bind_or(id, v, |message| invalid(path, message))
    }

    /// [`Reader::bind`] with its error made by `error` from the message: a
    /// caller makes the path only when there is an error.
    #[inline]
    pub(super) fn bind_or(
        &mut self,
        id: i64,
        v: ValueId,
        error: impl FnOnce(String) -> ReadError,
    ) -> Result<(), ReadError> {
        if id == 0 {
            return Err(error("value id 0 is reserved for absent values".into()));
        }
        if !self.values.insert(id, v) {
            return Err(error(format!("value id {id} is defined twice")));
        }
        Ok(())
    }

    pub(super) fn lookup(
        &self,
        id: i64,
        path: &JsonPath<'_>,
    ) -> Result<Option<ValueId>, ReadError> {
        self.lookup_or(id, |message| invalid(path, message))
    }

    /// [`Reader::lookup`] with its error made by `error` from the message.
    #[inline]
    pub(super) fn lookup_or(
        &self,
        id: i64,
        error: impl FnOnce(String) -> ReadError,
    ) -> Result<Option<ValueId>, ReadError> {
        if id == 0 {
            return Ok(None);
        }
        match self.values.get(id) {
            Some(v) => Ok(Some(v)),
            None if self.options.lenient_operands => Ok(None),
            None => Err(error(format!(
                "value id {id} is not defined before its use"
            ))),
        }
    }

    pub(super) fn op_name(
        &mut self,
        raw: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Symbol, ReadError> {
        let compressed = serial::string(raw, path)?;
        self.op_name_text(&compressed, path)
    }

    /// The symbol of the op name written `compressed` (`1.matmul`).
    pub(super) fn op_name_text(
        &mut self,
        compressed: &str,
        path: &JsonPath<'_>,
    ) -> Result<Symbol, ReadError> {
        if let Some(&s) = self.kept.names.get(compressed) {
            return Ok(s);
        }
        let full = decompress_op_name(compressed).map_err(|id| {
            invalid(
                path,
                format!("unknown dialect id `{id}` in op name `{compressed}`"),
            )
        })?;
        let sym = self.ctx.symbol(&full);
        self.kept.remember_name(compressed, sym);
        Ok(sym)
    }

    pub(super) fn read_op(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<OpId, ReadError> {
        if self.patches.is_some() {
            if let Some(patched) = self.patch_op(op_json, path)? {
                let doc = pir_json::parse(&patched)
                    .map_err(|e| invalid(path, format!("the patched op is not valid JSON: {e}")))?;
                return self.read_op_json(doc.root(), path);
            }
        }
        self.read_op_json(op_json, path)
    }

    /// The op's JSON after the patches that concern it, or `None` when none does.
    pub(super) fn patch_op(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Option<Vec<u8>>, ReadError> {
        let Some(set) = self.patches.take() else {
            return Ok(None);
        };
        let result = self.patch_op_with(&set, op_json, path);
        self.patches = Some(set);
        result
    }

    pub(super) fn patch_op_with(
        &mut self,
        set: &PatchSet,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Option<Vec<u8>>, ReadError> {
        let name_json = serial::field(op_json, "#", path)?;
        let is_param = name_json.str_eq(param_form::SHORT_NAME);
        let name = if is_param {
            param_form::OP_NAME.to_owned()
        } else {
            let sym = self.op_name(name_json, &path.key("#"))?;
            self.ctx.symbol_str(sym).to_owned()
        };
        let op_patch = set.ops.get(&name);
        let pairs: Vec<usize> = (0..set.pairs.len())
            .filter(|&i| set.pairs[i].producer == name || set.pairs[i].consumer == name)
            .collect();
        let renames = !set.type_renames.is_empty() || !set.attr_renames.is_empty();
        if op_patch.is_none() && pairs.is_empty() && !renames {
            return Ok(None);
        }
        let mut tree = Json::from_value(op_json);
        let where_ = path.to_string();
        if let Some(p) = op_patch {
            if is_param {
                patch::apply_parameter_patch(&mut tree, p, &where_)?;
            } else {
                patch::apply_op_patch(&mut tree, p, &where_, &name)?;
            }
        }
        for i in pairs {
            self.pairs.apply(&mut tree, set, i, &name, &where_)?;
        }
        patch::apply_id_renames(&mut tree, set);
        Ok(Some(tree.to_bytes()))
    }

    pub(super) fn read_op_json(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<OpId, ReadError> {
        // One pass over the members instead of a key search per field.
        let Some(members) = op_json.object() else {
            return Err(invalid(
                path,
                format!("expected an op object, found {}", serial::describe(op_json)),
            ));
        };
        let (mut name_json, mut inputs, mut outputs, mut a, mut oa, mut regions) =
            (None, None, None, None, None, None);
        for (key, value) in members.raw() {
            let slot = match key.raw_str() {
                Some("#") => &mut name_json,
                Some("I") => &mut inputs,
                Some("O") => &mut outputs,
                Some("A") => &mut a,
                Some("OA") => &mut oa,
                Some("regions") => &mut regions,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        let missing = |key: &str| invalid(path, format!("missing key `{key}`"));
        let name_json = name_json.ok_or_else(|| missing("#"))?;
        if name_json.str_eq(param_form::SHORT_NAME) {
            return self.read_parameter_op(op_json, path);
        }
        let name = self.op_name(name_json, &path.key("#"))?;
        if self.options.strict && self.ctx.op_info(name).is_none() {
            let text = self.ctx.symbol_str(name);
            return Err(invalid(&path.key("#"), format!("unknown op `{text}`")));
        }

        let inputs_path = path.key("I");
        let inputs = serial::array(inputs.ok_or_else(|| missing("I"))?, &inputs_path)?;
        let mut operands = std::mem::take(&mut self.operands);
        operands.clear();
        for (i, input) in inputs.enumerate() {
            let ipath = inputs_path.index(i);
            let id = serial::int(serial::field(input, "%", &ipath)?, &ipath.key("%"))?;
            operands.push(self.lookup(id, &ipath.key("%"))?);
        }

        let outputs_path = path.key("O");
        let outputs = serial::array(outputs.ok_or_else(|| missing("O"))?, &outputs_path)?;
        let mut result_types = std::mem::take(&mut self.result_types);
        let mut result_ids = std::mem::take(&mut self.result_ids);
        result_types.clear();
        result_ids.clear();
        for (i, output) in outputs.enumerate() {
            let opath = outputs_path.index(i);
            let (mut id, mut tt) = (None, None);
            if let Some(members) = output.object() {
                for (key, value) in members.raw() {
                    match key.raw_str() {
                        Some("%") if id.is_none() => id = Some(value),
                        Some("TT") if tt.is_none() => tt = Some(value),
                        _ => {}
                    }
                }
            }
            let tt = tt.ok_or_else(|| {
                invalid(
                    &opath,
                    format!(
                        "expected a result {{\"%\",\"TT\"}}, found {}",
                        serial::describe(output)
                    ),
                )
            })?;
            result_types.push(self.read_type(tt, &opath.key("TT"))?);
            result_ids.push(match id {
                Some(id) => Some(serial::int(id, &opath.key("%"))?),
                None => None,
            });
        }

        let attrs = self.read_attr_dict(a.ok_or_else(|| missing("A"))?, oa, path)?;

        let num_regions = match regions {
            Some(r) => serial::array(r, &path.key("regions"))?.len(),
            None => 0,
        };
        if let Err(e) = pir_core::program::check_op_shape(result_types.len(), num_regions) {
            return Err(invalid(path, e.to_string()));
        }
        let op = self
            .program
            .create_op(name, &operands, &result_types, attrs, num_regions);
        self.operands = operands;
        self.result_types = result_types;
        for (i, id) in result_ids.iter().enumerate() {
            if let Some(id) = *id {
                let v = self.program.result(op, i);
                self.bind(id, v, &outputs_path.index(i).key("%"))?;
            }
        }
        self.result_ids = result_ids;
        if let Some(regions_json) = regions {
            let rpath = path.key("regions");
            for (r, region_json) in serial::array(regions_json, &rpath)?.enumerate() {
                let region_path = rpath.index(r);
                serial::field(region_json, "#", &region_path)?;
                let region = self.program.op_region(op, r);
                let bpath = region_path.key("blocks");
                for (b, block_json) in
                    serial::array(serial::field(region_json, "blocks", &region_path)?, &bpath)?
                        .enumerate()
                {
                    let block = self.program.add_block(region);
                    self.read_block(block_json, block, &bpath.index(b))?;
                }
            }
        }
        Ok(op)
    }

    /// Reads a type, decoding each distinct JSON text once.
    pub(super) fn read_type(
        &mut self,
        v: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Type, ReadError> {
        let text = v.text_key();
        let key = self.in_input(text);
        if let Some(ty) = key.and_then(|k| self.type_cache.get(k)) {
            return Ok(*ty);
        }
        // The context keeps types by their texts across reads (see
        // `direct`); a text key (the text and what follows up to the next
        // value) stands for one text, so for one type, and is never the
        // whole text of a value the other readers look up.
        if let Some(ty) = self.ctx.type_of_text(text) {
            return Ok(ty);
        }
        let ty = serial::decode_type(&self.ctx, v, path)?;
        self.ctx.remember_type_text(text, ty);
        if let Some(key) = key {
            self.type_cache.insert(key, ty);
        }
        Ok(ty)
    }

    /// Reads an op's `A` then `OA` entries into an attribute dictionary,
    /// decoding each distinct pair of lists once.
    pub(super) fn read_attr_dict(
        &mut self,
        a: JsonValue<'_>,
        oa: Option<JsonValue<'_>>,
        path: &JsonPath<'_>,
    ) -> Result<AttrDict, ReadError> {
        let key = match (
            self.in_input(a.text_key()),
            oa.map(|oa| self.in_input(oa.text_key())),
        ) {
            (Some(a), None) => Some(DictKey::new((a, ""))),
            (Some(a), Some(Some(oa))) => Some(DictKey::new((a, oa))),
            _ => None,
        };
        if let Some(dict) = key.and_then(|k| self.dict_cache.get(&k)) {
            return Ok(dict);
        }
        self.attrs.clear();
        self.read_attr_list(a, &path.key("A"))?;
        if let Some(oa) = oa {
            self.read_attr_list(oa, &path.key("OA"))?;
        }
        let dict = self.ctx.dict(&self.attrs);
        if let Some(key) = key {
            self.dict_cache.insert(key, dict);
        }
        Ok(dict)
    }

    /// Reads `[{"AT":attr,"N":name}, ...]` into `self.attrs`.
    pub(super) fn read_attr_list(
        &mut self,
        list: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        for (i, entry) in serial::array(list, path)?.enumerate() {
            let text = entry.text_key();
            let key = self.in_input(text);
            if let Some(&cached) = key.and_then(|k| self.entry_cache.get(k)) {
                self.attrs.push(cached);
                continue;
            }
            // By its text key in the context, as types are (see `read_type`).
            if let Some(cached) = self.ctx.entry_of_text(text) {
                self.attrs.push(cached);
                continue;
            }
            let entry = self.read_attr_entry(entry, &path.index(i))?;
            super::remember_entry_text(&self.ctx, text, entry);
            self.attrs.push(entry);
            if let Some(key) = key {
                self.entry_cache.insert(key, entry);
            }
        }
        Ok(())
    }

    /// One `{"AT":attr,"N":name}` entry.
    pub(super) fn read_attr_entry(
        &mut self,
        entry: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<(Symbol, Attribute), ReadError> {
        let name = serial::string(serial::field(entry, "N", path)?, &path.key("N"))?;
        let attr = serial::decode_attr(
            &self.ctx,
            serial::field(entry, "AT", path)?,
            &path.key("AT"),
        )?;
        Ok((self.ctx.symbol(&name), attr))
    }

    /// Reads the short form of `builtin.parameter` (format spec §2.7).
    pub(super) fn read_parameter_op(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<OpId, ReadError> {
        let apath = path.key("A");
        let [dist, is_param, clip, name] =
            serial::array_n::<4>(serial::field(op_json, "A", path)?, &apath)?;
        let flag = |v: JsonValue<'_>, p: &JsonPath<'_>| serial::int(v, p).map(|i| i != 0);
        let syms = self.syms();
        self.attrs.clear();
        for (i, (v, (attr, _))) in [dist, is_param, clip]
            .into_iter()
            .zip(param_form::A_FLAGS)
            .enumerate()
        {
            let a = syms.flag(flag(v, &apath.index(i))?);
            self.attrs.push((syms.get(attr), a));
        }
        let name = serial::string(name, &apath.index(3))?;
        let name_attr = StrAttr::get(&self.ctx, &name);
        self.attrs.push((syms.get(Slot::ParameterName), name_attr));
        for key in ["DA", "QA"] {
            if let Some(list) = op_json.get(key) {
                self.read_attr_list(list, &path.key(key))?;
            }
        }
        if let Some(oa) = op_json.get("OA") {
            let oapath = path.key("OA");
            let values = serial::array_n::<3>(oa, &oapath)?;
            for (i, (v, (attr, _))) in values.into_iter().zip(param_form::OA_FLAGS).enumerate() {
                let a = syms.flag(flag(v, &oapath.index(i))?);
                self.attrs.push((syms.get(attr), a));
            }
        }
        let attrs: AttrDict = self.ctx.dict(&self.attrs);
        let opath = path.key("O");
        let output = serial::field(op_json, "O", path)?;
        if output.kind() != Kind::Object {
            return Err(invalid(
                &opath,
                format!("expected an object, found {}", serial::describe(output)),
            ));
        }
        let ty = self.read_type(serial::field(output, "TT", &opath)?, &opath.key("TT"))?;
        let op = self.program.create_op(syms.op, &[], &[ty], attrs, 0);
        if let Some(id) = output.get("%") {
            let id = serial::int(id, &opath.key("%"))?;
            let v = self.program.result(op, 0);
            self.bind(id, v, &opath.key("%"))?;
        }
        Ok(op)
    }
}

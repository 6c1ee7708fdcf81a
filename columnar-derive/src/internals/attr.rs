//! `#[columnar(...)]` arguments parsed into typed values.

use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::Parse;
use syn::{Ident, LitInt, LitStr, Token, Type};

use super::ctxt::Ctxt;

/// The struct arguments: `#[columnar(vec, map, ser, de, iterable)]`.
#[derive(Default, Clone)]
pub struct StructArgs {
    pub vec: bool,
    pub map: bool,
    pub ser: bool,
    pub de: bool,
    pub iterable: bool,
    /// `crate = "path"`: where the library is, for crates that re-export it.
    pub krate: Option<syn::Path>,
}

impl StructArgs {
    /// Parses one `#[columnar(...)]` argument list into `self`.
    pub fn parse_into(&mut self, cx: &Ctxt, tokens: proc_macro2::TokenStream) {
        let parser = syn::meta::parser(|meta| {
            if meta.path.is_ident("crate") {
                let lit: LitStr = meta.value()?.parse()?;
                if self.krate.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate columnar struct argument");
                }
                match lit.parse::<syn::Path>() {
                    Ok(path) => self.krate = Some(path),
                    Err(_) => cx.error_spanned_by(
                        &lit,
                        "expected a path, e.g. `crate = \"my_crate::columnar\"`",
                    ),
                }
                return Ok(());
            }
            let flag = if meta.path.is_ident("vec") {
                &mut self.vec
            } else if meta.path.is_ident("map") {
                &mut self.map
            } else if meta.path.is_ident("ser") {
                &mut self.ser
            } else if meta.path.is_ident("de") {
                &mut self.de
            } else if meta.path.is_ident("iterable") {
                &mut self.iterable
            } else {
                cx.error_spanned_by(
                    &meta.path,
                    format_args!(
                        "unknown columnar struct argument `{}`; expected one of `vec`, `map`, `ser`, `de`, `iterable`, `crate`",
                        path_name(&meta.path)
                    ),
                );
                return skip_value(&meta);
            };
            if *flag {
                cx.error_spanned_by(&meta.path, "duplicate columnar struct argument");
            }
            *flag = true;
            if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
                cx.error_spanned_by(&meta.path, "this struct argument takes no value");
                return skip_value(&meta);
            }
            Ok(())
        });
        if let Err(err) = syn::parse::Parser::parse2(parser, tokens) {
            cx.syn_error(err);
        }
    }
}

/// A column codec named by `strategy = "..."`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Rle,
    DeltaRle,
    BoolRle,
    DeltaOfDelta,
}

/// The container kind named by `class = "..."`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Vec,
    Map,
}

/// `borrow` or `borrow = "'a + 'b"`.
pub struct BorrowArg {
    /// The `borrow` keyword, for error spans.
    pub path: syn::Path,
    /// The lifetimes named, if any.
    pub lifetimes: Option<Vec<syn::Lifetime>>,
}

/// The field arguments, each with the tokens it came from for error spans.
#[derive(Default)]
pub struct FieldArgs {
    pub strategy: Option<(Strategy, LitStr)>,
    pub class: Option<(Class, LitStr)>,
    pub optional: Option<syn::Path>,
    pub index: Option<(u64, LitInt)>,
    pub borrow: Option<BorrowArg>,
    pub skip: Option<syn::Path>,
    pub iter: Option<(Type, LitStr)>,
}

impl FieldArgs {
    /// Parses one field attribute's argument list into `self`.
    pub fn parse_into(&mut self, cx: &Ctxt, attr: &syn::Attribute) {
        let result = attr.parse_nested_meta(|meta| {
            let name = path_name(&meta.path);
            let path = &meta.path;
            match name.as_str() {
                "strategy" => literal_arg(cx, &meta, &name, &mut self.strategy, |lit: &LitStr| {
                    match lit.value().as_str() {
                        "Rle" => Ok(Strategy::Rle),
                        "DeltaRle" => Ok(Strategy::DeltaRle),
                        "BoolRle" => Ok(Strategy::BoolRle),
                        "DeltaOfDelta" => Ok(Strategy::DeltaOfDelta),
                        other => Err(format!(
                            "unknown strategy `{other}`; expected one of \"Rle\", \"DeltaRle\", \"BoolRle\", \"DeltaOfDelta\""
                        )),
                    }
                })?,
                "class" => literal_arg(cx, &meta, &name, &mut self.class, |lit: &LitStr| {
                    match lit.value().as_str() {
                        "vec" => Ok(Class::Vec),
                        "map" => Ok(Class::Map),
                        other => Err(format!(
                            "unknown class `{other}`; expected \"vec\" or \"map\""
                        )),
                    }
                })?,
                "optional" | "skip" => {
                    let slot = if name == "optional" {
                        &mut self.optional
                    } else {
                        &mut self.skip
                    };
                    set_once(cx, path, &name, slot, meta.path.clone());
                    if meta.input.peek(Token![=]) {
                        cx.error_spanned_by(&meta.path, format_args!("`{name}` takes no value"));
                        return skip_value(&meta);
                    }
                }
                "index" => literal_arg(cx, &meta, &name, &mut self.index, |lit: &LitInt| {
                    lit.base10_parse()
                        .map_err(|_| "index must be an unsigned integer".to_owned())
                })?,
                "borrow" => {
                    let lifetimes = if meta.input.peek(Token![=]) {
                        let lit: LitStr = meta.value()?.parse()?;
                        match parse_lifetimes(&lit) {
                            Ok(lifetimes) => Some(lifetimes),
                            Err(_) => {
                                cx.error_spanned_by(
                                    &lit,
                                    "expected lifetimes such as \"'a\" or \"'a + 'b\"",
                                );
                                return Ok(());
                            }
                        }
                    } else {
                        None
                    };
                    set_once(cx, path, &name, &mut self.borrow, BorrowArg {
                        path: meta.path.clone(),
                        lifetimes,
                    });
                }
                "iter" => literal_arg(cx, &meta, &name, &mut self.iter, |lit: &LitStr| {
                    lit.parse()
                        .map_err(|_| "`iter` must name a row type, e.g. \"Row\"".to_owned())
                })?,
                _ => {
                    cx.error_spanned_by(
                        &meta.path,
                        format_args!(
                            "unknown columnar field argument `{name}`; expected one of `strategy`, `class`, `optional`, `index`, `borrow`, `skip`, `iter`"
                        ),
                    );
                    return skip_value(&meta);
                }
            }
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }
}

/// Stores the value of field argument `name`, reporting it when it was given already (the
/// last one is kept, so checks further on see one value).
fn set_once<T>(cx: &Ctxt, path: &syn::Path, name: &str, slot: &mut Option<T>, value: T) {
    if slot.is_some() {
        cx.error_spanned_by(path, format_args!("duplicate columnar argument `{name}`"));
    }
    *slot = Some(value);
}

/// Reads `= literal` for field argument `name` and stores `(value, literal)` in `slot`, the
/// value made by `convert`; a literal that `convert` rejects is reported with its message.
fn literal_arg<L: Parse + ToTokens, T>(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    name: &str,
    slot: &mut Option<(T, L)>,
    convert: impl FnOnce(&L) -> Result<T, String>,
) -> syn::Result<()> {
    let lit: L = meta.value()?.parse()?;
    match convert(&lit) {
        Ok(value) => set_once(cx, &meta.path, name, slot, (value, lit)),
        Err(message) => cx.error_spanned_by(&lit, message),
    }
    Ok(())
}

fn parse_lifetimes(lit: &LitStr) -> syn::Result<Vec<syn::Lifetime>> {
    lit.parse_with(|input: syn::parse::ParseStream| {
        let list =
            syn::punctuated::Punctuated::<syn::Lifetime, Token![+]>::parse_separated_nonempty(
                input,
            )?;
        Ok(list.into_iter().collect())
    })
}

fn path_name(path: &syn::Path) -> String {
    path.get_ident()
        .map(Ident::to_string)
        .unwrap_or_else(|| quote::quote!(#path).to_string().replace(' ', ""))
}

/// Consumes `= value` or `(...)` after an argument that was reported, so parsing goes on.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|inner| skip_value(&inner));
    }
    Ok(())
}

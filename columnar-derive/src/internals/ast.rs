//! The struct and its fields as the code generators see them.

use proc_macro2::Span;
use syn::{Fields, Generics, Ident, Type, Visibility};

use super::attr::{Class, FieldArgs, Strategy, StructArgs};
use super::ctxt::Ctxt;

/// A `#[columnar]` struct with named fields.
pub struct Container {
    pub ident: Ident,
    pub vis: Visibility,
    pub generics: Generics,
    pub args: StructArgs,
    pub fields: Vec<Field>,
    /// The library's path as the user's crate knows it (see [`resolve_crate_path`]); every
    /// generated path starts with it.
    pub krate: syn::Path,
}

/// One named field and its arguments.
pub struct Field {
    pub ident: Ident,
    pub vis: Visibility,
    pub ty: Type,
    pub args: FieldArgs,
}

impl Field {
    pub fn is_skipped(&self) -> bool {
        self.args.skip.is_some()
    }
    pub fn is_optional(&self) -> bool {
        self.args.optional.is_some()
    }
    pub fn index(&self) -> u64 {
        self.args.index.as_ref().map_or(0, |(index, _)| *index)
    }
    pub fn strategy(&self) -> Option<Strategy> {
        self.args.strategy.as_ref().map(|(strategy, _)| *strategy)
    }
    pub fn class(&self) -> Option<Class> {
        self.args.class.as_ref().map(|(class, _)| *class)
    }
    pub fn borrows(&self) -> bool {
        self.args.borrow.is_some()
    }
}

/// The path the user's crate knows the library by: `#[columnar(crate = "...")]` if given,
/// else the name its Cargo.toml gives the `columnar-codec` package (renamed or not), else the name
/// of a `serde_columnar` dependency (the compatibility package, or a rename), else `columnar`.
pub fn resolve_crate_path(explicit: Option<syn::Path>) -> syn::Path {
    use proc_macro_crate::{crate_name, FoundCrate};
    if let Some(path) = explicit {
        return path;
    }
    let name = ["columnar-codec", "serde_columnar"]
        .into_iter()
        .find_map(|package| match crate_name(package) {
            // `columnar-codec = "0.1"` unrenamed: the extern name is the library's, `columnar`.
            Ok(FoundCrate::Name(name)) if name == "columnar_codec" => Some("columnar".to_owned()),
            Ok(FoundCrate::Name(name)) => Some(name),
            // Inside the library's own tests, examples and doctests.
            Ok(FoundCrate::Itself) if package == "columnar-codec" => Some("columnar".to_owned()),
            Ok(FoundCrate::Itself) => Some(package.to_owned()),
            Err(_) => None,
        })
        .unwrap_or_else(|| "columnar".to_owned());
    let ident = Ident::new(&name, Span::call_site());
    syn::parse_quote!(::#ident)
}

/// The argument lists of `#[columnar(...)]` attributes that are not the macro's own.
fn is_columnar_attr(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("columnar")
}

impl Container {
    /// Reads the item, recording every problem in `cx`. Removes the `#[columnar]` attributes
    /// from `item` so it can be emitted as the user's struct. `None` when the item is not a
    /// struct with named fields.
    pub fn from_item(cx: &Ctxt, args: StructArgs, item: &mut syn::DeriveInput) -> Option<Self> {
        let mut args = args;
        // More `#[columnar(...)]` lines on the struct add arguments.
        for attr in item.attrs.iter().filter(|attr| is_columnar_attr(attr)) {
            match &attr.meta {
                syn::Meta::List(list) => args.parse_into(cx, list.tokens.clone()),
                syn::Meta::Path(_) => {}
                syn::Meta::NameValue(_) => cx.error_spanned_by(attr, "expected `#[columnar(...)]`"),
            }
        }
        item.attrs.retain(|attr| !is_columnar_attr(attr));

        let fields = match &mut item.data {
            syn::Data::Struct(data) => match &mut data.fields {
                Fields::Named(named) => &mut named.named,
                Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        &*unnamed,
                        "#[columnar] supports structs with named fields only, not tuple structs",
                    );
                    return None;
                }
                Fields::Unit => {
                    cx.error_spanned_by(
                        &item.ident,
                        "#[columnar] supports structs with named fields only, not unit structs",
                    );
                    return None;
                }
            },
            syn::Data::Enum(data) => {
                cx.error_spanned_by(
                    data.enum_token,
                    "#[columnar] supports structs only, not enums",
                );
                return None;
            }
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "#[columnar] supports structs only, not unions",
                );
                return None;
            }
        };

        let mut model = Vec::with_capacity(fields.len());
        for field in fields.iter_mut() {
            let mut field_args = FieldArgs::default();
            for attr in field.attrs.iter().filter(|attr| is_columnar_attr(attr)) {
                field_args.parse_into(cx, attr);
            }
            field.attrs.retain(|attr| !is_columnar_attr(attr));
            let Some(ident) = field.ident.clone() else {
                continue;
            };
            model.push(Field {
                ident,
                vis: field.vis.clone(),
                ty: field.ty.clone(),
                args: field_args,
            });
        }
        let krate = resolve_crate_path(args.krate.clone());
        Some(Container {
            ident: item.ident.clone(),
            vis: item.vis.clone(),
            generics: item.generics.clone(),
            args,
            fields: model,
            krate,
        })
    }

    /// Fields that are written, in declaration order.
    pub fn written(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|field| !field.is_skipped())
    }
    /// Required (non-optional, non-skipped) fields.
    pub fn required(&self) -> impl Iterator<Item = &Field> {
        self.written().filter(|field| !field.is_optional())
    }
    /// Optional fields.
    pub fn optional(&self) -> impl Iterator<Item = &Field> {
        self.written().filter(|field| field.is_optional())
    }
    /// Whether any field has `iter = "..."`.
    pub fn has_iter_fields(&self) -> bool {
        self.fields.iter().any(|field| field.args.iter.is_some())
    }
}

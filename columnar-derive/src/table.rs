//! Tables: `#[columnar(ser, de)]` implement serde's traits with the table layout, and a table
//! with `iter` fields gets its streaming counterpart `{Table}Iter`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Lifetime, Type};

use crate::common::{
    container_args, de_lifetime, iter_lifetime, iterable_type, local, mentions_type_param, private,
    private_at, replace_lifetimes, table_wrapper, with_de_lifetime, with_predicates,
};
use crate::internals::ast::{Container, Field};
use crate::internals::attr::Class;

/// `impl Serialize`: a sequence of the written fields, optional ones as `(index, bytes)`.
pub fn serialize(container: &Container) -> TokenStream {
    let p = private(&container.krate);
    let ident = &container.ident;
    let mut predicates = Vec::new();
    for field in container.written() {
        if mentions_type_param(&container.generics, &field.ty) {
            predicates.extend(serialize_bounds(&container.krate, field));
        }
    }
    let generics = with_predicates(&container.generics, predicates);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let count = container.written().count();
    let elements = container
        .required()
        .chain(container.optional())
        .map(|field| {
            let name = &field.ident;
            let value = serialize_value(&container.krate, field, quote!(&self.#name));
            if field.is_optional() {
                let index = field.index();
                let p = private_at(&container.krate, field.ty.span());
                quote_spanned! {field.ty.span()=>
                    let __bytes = #p::encode_value(#value).map_err(#p::ser_error::<__S::Error>)?;
                    __seq.serialize_element(&#p::OptionalEntry(#index, &__bytes))?;
                }
            } else {
                quote_spanned!(field.ty.span()=> __seq.serialize_element(#value)?;)
            }
        });
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S: #p::serde::Serializer>(&self, __serializer: __S) -> #p::StdResult<__S::Ok, __S::Error> {
                use #p::serde::ser::SerializeSeq as _;
                let mut __seq = __serializer.serialize_seq(#p::Option::Some(#count))?;
                #(#elements)*
                __seq.end()
            }
        }
    }
}

fn serialize_value(krate: &syn::Path, field: &Field, value: TokenStream) -> TokenStream {
    let ty = &field.ty;
    match field.class() {
        Some(Class::Vec) => {
            let row = container_args(ty)
                .1
                .map_or_else(|| quote!(_), |row| quote!(#row));
            let p = private_at(krate, ty.span());
            quote_spanned!(ty.span()=> &#p::VecContainer::<#row, #ty>::new(#value))
        }
        Some(Class::Map) => {
            let (key, row) = container_args(ty);
            let key = key.map_or_else(|| quote!(_), |key| quote!(#key));
            let row = row.map_or_else(|| quote!(_), |row| quote!(#row));
            let p = private_at(krate, ty.span());
            quote_spanned!(ty.span()=> &#p::MapContainer::<#key, #row, #ty>::new(#value))
        }
        None => value,
    }
}

fn serialize_bounds(krate: &syn::Path, field: &Field) -> Vec<TokenStream> {
    let p = private(krate);
    let ty = &field.ty;
    match field.class() {
        Some(class) => {
            let (key, row) = container_args(ty);
            let mut bounds = Vec::new();
            if let Some(row) = row {
                let marker = if class == Class::Vec {
                    quote!(#p::VecRow)
                } else {
                    quote!(#p::MapRow)
                };
                bounds.push(quote!(#row: #p::EncodeRows + #marker));
            }
            if let (Class::Map, Some(key)) = (class, key) {
                bounds.push(quote!(#key: #p::serde::Serialize));
            }
            bounds
        }
        None => vec![quote!(#ty: #p::serde::Serialize)],
    }
}

fn deserialize_bounds(
    krate: &syn::Path,
    field: &Field,
    ty: &Type,
    de: &Lifetime,
) -> Vec<TokenStream> {
    let p = private(krate);
    let mut bounds = Vec::new();
    if field.is_skipped() || field.is_optional() {
        bounds.push(quote!(#ty: #p::Default));
    }
    if !field.is_skipped() {
        // Bound the decoding wrapper, not the type parameters inside it: a user's own
        // `K: DeserializeOwned` next to an added `K: Deserialize<'de>` would be ambiguous.
        let wrapper = table_wrapper(krate, field, ty, None);
        bounds.push(quote!(#wrapper: #p::serde::Deserialize<#de>));
    }
    bounds
}

/// One field of a table being decoded: its type and how it is read.
struct DecodedField<'a> {
    field: &'a Field,
    ty: Type,
    /// For `iter` fields of `{Table}Iter`: the row iterator type.
    iter_rows: Option<Type>,
}

/// `impl Deserialize` for the table.
pub fn deserialize(container: &Container) -> TokenStream {
    let fields = container
        .fields
        .iter()
        .map(|field| DecodedField {
            field,
            ty: field.ty.clone(),
            iter_rows: None,
        })
        .collect();
    deserialize_impl(container, &container.ident, &de_lifetime(), fields)
}

fn deserialize_impl(
    container: &Container,
    ident: &Ident,
    de: &Lifetime,
    fields: Vec<DecodedField<'_>>,
) -> TokenStream {
    let p = private(&container.krate);
    let mut predicates = Vec::new();
    for decoded in &fields {
        if decoded.iter_rows.is_none() && mentions_type_param(&container.generics, &decoded.ty) {
            predicates.extend(deserialize_bounds(
                &container.krate,
                decoded.field,
                &decoded.ty,
                de,
            ));
        }
    }
    // `{Table}Iter` has `'__iter` in place of the table's lifetimes.
    let self_generics = if ident == &container.ident {
        container.generics.clone()
    } else {
        iter_table_generics(container)
    };
    let impl_generics = if ident == &container.ident {
        with_de_lifetime(&container.generics, de)
    } else {
        self_generics.clone()
    };
    let impl_generics = with_predicates(&impl_generics, predicates);
    let (impl_generics, visitor_ty_generics, where_clause) = impl_generics.split_for_impl();
    let (_, ty_generics, _) = self_generics.split_for_impl();

    let required = fields.iter().filter(|decoded| !decoded.field.is_skipped() && !decoded.field.is_optional()).map(|decoded| {
        let var = local(decoded.field);
        let wrapper = table_wrapper(&container.krate, decoded.field, &decoded.ty, decoded.iter_rows.as_ref());
        let p = private_at(&container.krate, decoded.ty.span());
        quote_spanned!(decoded.ty.span()=> let #var = #p::next_field::<#wrapper, __A>(__columns.seq())?;)
    });
    let optional: Vec<_> = fields
        .iter()
        .filter(|decoded| decoded.field.is_optional() && !decoded.field.is_skipped())
        .collect();
    let slots = optional.iter().map(|decoded| {
        let var = local(decoded.field);
        let ty = &decoded.ty;
        quote!(let mut #var: #p::Option<#ty> = #p::Option::None;)
    });
    let arms = optional.iter().map(|decoded| {
        let var = local(decoded.field);
        let index = decoded.field.index();
        let wrapper = table_wrapper(&container.krate, decoded.field, &decoded.ty, None);
        quote_spanned!(decoded.ty.span()=> #index => __column.value::<#wrapper>(&mut #var),)
    });
    let inits = fields.iter().map(|decoded| {
        let name = &decoded.field.ident;
        let var = local(decoded.field);
        let p = private_at(&container.krate, decoded.ty.span());
        if decoded.field.is_skipped() {
            quote_spanned!(decoded.ty.span()=> #name: #p::Default::default())
        } else if decoded.field.is_optional() {
            quote_spanned!(decoded.ty.span()=> #name: #p::Option::unwrap_or_default(#var))
        } else {
            quote!(#name: #var)
        }
    });
    let expecting = format!("the table {ident}");
    quote! {
        #[automatically_derived]
        #[allow(clippy::let_unit_value)]
        impl #impl_generics #p::serde::Deserialize<#de> for #ident #ty_generics #where_clause {
            fn deserialize<__D: #p::serde::Deserializer<#de>>(__deserializer: __D) -> #p::StdResult<Self, __D::Error> {
                struct __Visitor #impl_generics #where_clause {
                    __marker: #p::PhantomData<fn() -> #ident #ty_generics>,
                    __lifetime: #p::PhantomData<&#de ()>,
                }
                impl #impl_generics #p::serde::de::Visitor<#de> for __Visitor #visitor_ty_generics #where_clause {
                    type Value = #ident #ty_generics;
                    fn expecting(&self, __formatter: &mut #p::fmt::Formatter) -> #p::fmt::Result {
                        __formatter.write_str(#expecting)
                    }
                    fn visit_seq<__A: #p::serde::de::SeqAccess<#de>>(self, __seq: __A) -> #p::StdResult<Self::Value, __A::Error> {
                        let mut __columns = #p::ColumnsReader::new(__seq);
                        #(#required)*
                        #(#slots)*
                        #p::table_optionals(&mut __columns, |__index, __column| match __index {
                            #(#arms)*
                            _ => #p::StdResult::Ok(false),
                        })?;
                        #p::StdResult::Ok(#ident { #(#inits),* })
                    }
                }
                __deserializer.deserialize_seq(__Visitor { __marker: #p::PhantomData, __lifetime: #p::PhantomData })
            }
        }
    }
}

/// The generics of `{Table}Iter`: `'__iter` in place of the table's lifetimes, which every
/// field type borrows for `'__iter` instead.
fn iter_table_generics(container: &Container) -> syn::Generics {
    let mut generics = container.generics.clone();
    generics.params = std::iter::once(syn::GenericParam::Lifetime(syn::LifetimeParam::new(
        iter_lifetime(),
    )))
    .chain(
        generics
            .params
            .into_iter()
            .filter(|param| !matches!(param, syn::GenericParam::Lifetime(_))),
    )
    .collect();
    generics
}

/// `{Table}Iter<'__iter, ...>`, its `Deserialize`, and `impl TableIter for Table`.
pub fn table_iter(container: &Container) -> TokenStream {
    let p = private(&container.krate);
    let ident = &container.ident;
    let vis = &container.vis;
    let iter_ident = format_ident!("{}Iter", ident);
    let iter = iter_lifetime();
    let mut decoded = Vec::new();
    let mut struct_fields = Vec::new();
    for field in &container.fields {
        let name = &field.ident;
        let field_vis = &field.vis;
        let iter_rows = match &field.args.iter {
            Some((row, lit)) => match iterable_type(row) {
                Some(ty) => Some(ty),
                None => {
                    return syn::Error::new_spanned(
                        lit,
                        "`iter` must name a row type such as \"Row\" or \"Row<'a>\"",
                    )
                    .to_compile_error();
                }
            },
            None => None,
        };
        let ty = iter_rows
            .clone()
            .unwrap_or_else(|| replace_lifetimes(&container.generics, &field.ty, &iter));
        struct_fields.push(quote!(#field_vis #name: #ty));
        decoded.push(DecodedField {
            field,
            ty,
            iter_rows,
        });
    }
    let generics = iter_table_generics(container);
    let (_, iter_ty_generics, where_clause) = generics.split_for_impl();
    let table_generics = with_de_lifetime(&container.generics, &iter);
    let (table_impl_generics, _, _) = table_generics.split_for_impl();
    let (_, ty_generics, _) = container.generics.split_for_impl();
    let doc = format!(
        "[`{ident}`] with its `iter` fields as row iterators, from [`columnar::iter_from_bytes`]."
    );
    let deserialize = deserialize_impl(container, &iter_ident, &iter, decoded);
    quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        #vis struct #iter_ident #generics #where_clause {
            #(#struct_fields),*
        }
        #deserialize
        #[automatically_derived]
        impl #table_impl_generics #p::TableIter<#iter> for #ident #ty_generics #where_clause {
            type Iter = #iter_ident #iter_ty_generics;
        }
    }
}

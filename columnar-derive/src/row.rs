//! Rows: `#[columnar(vec)]` / `#[columnar(map)]` make each field a column.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::common::{
    de_lifetime, element_bound, local, mentions_type_param, private, private_at, row_strategy,
    with_de_lifetime, with_predicates,
};
use crate::internals::ast::Container;

/// The local variable holding a field's column decoder.
fn column_var(field: &crate::internals::ast::Field) -> syn::Ident {
    use syn::ext::IdentExt;
    quote::format_ident!("__column_{}", field.ident.unraw())
}

/// `EncodeRows`, `DecodeRows` and the `VecRow` / `MapRow` markers.
pub fn expand(container: &Container) -> TokenStream {
    let p = private(&container.krate);
    let ident = &container.ident;
    let encode = encode_rows(container);
    let decode = decode_rows(container);
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let vec = container.args.vec.then(|| {
        quote!(#[automatically_derived] impl #impl_generics #p::VecRow for #ident #ty_generics #where_clause {})
    });
    let map = container.args.map.then(|| {
        quote!(#[automatically_derived] impl #impl_generics #p::MapRow for #ident #ty_generics #where_clause {})
    });
    quote! {
        #encode
        #decode
        #vec
        #map
    }
}

fn encode_rows(container: &Container) -> TokenStream {
    let p = private(&container.krate);
    let ident = &container.ident;
    let fields: Vec<_> = container.written().collect();
    let predicates = fields
        .iter()
        .filter(|field| mentions_type_param(&container.generics, &field.ty))
        .map(|field| {
            let ty = &field.ty;
            let strategy = row_strategy(&container.krate, field);
            quote!(for<'__r> #strategy: #p::Codec<'__r, #ty>)
        })
        .chain(
            fields
                .iter()
                .filter_map(|field| element_bound(container, field)),
        )
        .collect();
    let generics = with_predicates(&container.generics, predicates);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let encoders = fields.iter().map(|field| {
        let ty = &field.ty;
        let var = local(field);
        let strategy = row_strategy(&container.krate, field);
        let p = private_at(&container.krate, ty.span());
        quote_spanned!(ty.span()=> let mut #var = #p::encoder::<#strategy, #ty>();)
    });
    let pushes = fields.iter().map(|field| {
        let var = local(field);
        let name = &field.ident;
        let p = private_at(&container.krate, field.ty.span());
        quote_spanned!(field.ty.span()=> #p::ColumnEncoder::push(&mut #var, &__row.#name)?;)
    });
    let finishes = fields.iter().map(|field| {
        let var = local(field);
        if field.is_optional() {
            let index = field.index();
            quote!(__columns.optional(#index, #p::ColumnEncoder::finish(#var)?);)
        } else {
            quote!(__columns.required(#p::ColumnEncoder::finish(#var)?);)
        }
    });
    // Required columns first, then optional ones, as the wire has them.
    let mut finishes: Vec<_> = fields
        .iter()
        .map(|field| field.is_optional())
        .zip(finishes)
        .collect();
    finishes.sort_by_key(|(optional, _)| *optional);
    let finishes = finishes.into_iter().map(|(_, finish)| finish);
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::EncodeRows for #ident #ty_generics #where_clause {
            fn encode_rows<'__r, __I>(__rows: __I, __columns: &mut #p::ColumnsWriter) -> #p::Result<()>
            where
                __I: #p::Iterator<Item = &'__r Self>,
                Self: '__r,
            {
                #(#encoders)*
                for __row in __rows {
                    #(#pushes)*
                }
                #(#finishes)*
                #p::StdResult::Ok(())
            }
        }
    }
}

fn decode_rows(container: &Container) -> TokenStream {
    let p = private(&container.krate);
    let ident = &container.ident;
    let de = de_lifetime();
    let mut predicates = Vec::new();
    for field in &container.fields {
        if !mentions_type_param(&container.generics, &field.ty) {
            continue;
        }
        let ty = &field.ty;
        if !field.is_skipped() {
            let strategy = row_strategy(&container.krate, field);
            predicates.push(quote!(#strategy: #p::CodecDe<#de, #ty>));
        }
        if field.is_skipped() || field.is_optional() {
            predicates.push(quote!(#ty: #p::Default));
        }
    }
    predicates.extend(
        container
            .fields
            .iter()
            .filter_map(|field| element_bound(container, field)),
    );
    let impl_generics = with_predicates(&with_de_lifetime(&container.generics, &de), predicates);
    let (impl_generics, _, where_clause) = impl_generics.split_for_impl();
    let (_, ty_generics, _) = container.generics.split_for_impl();

    // Rows are built straight from the columns' streaming decoders: no column is
    // materialized, and the columns are checked to end together.
    let required = container.required().map(|field| {
        let ty = &field.ty;
        let column = column_var(field);
        let strategy = row_strategy(&container.krate, field);
        quote_spanned!(ty.span()=> let mut #column = __columns.required_iter::<#strategy, #ty>()?;)
    });
    let optional_slots = container.optional().map(|field| {
        let column = column_var(field);
        quote!(let mut #column = #p::Option::None;)
    });
    let optional_arms = container.optional().map(|field| {
        let ty = &field.ty;
        let column = column_var(field);
        let index = field.index();
        let strategy = row_strategy(&container.krate, field);
        quote_spanned!(ty.span()=> #index => __column.iter::<#strategy, #ty>(&mut #column),)
    });
    let optionals = if container.optional().count() > 0 {
        quote! {
            __columns.optionals(|__index, __column| match __index {
                #(#optional_arms)*
                _ => #p::StdResult::Ok(false),
            })?;
        }
    } else {
        quote!(__columns.optionals(|_, _| #p::StdResult::Ok(false))?;)
    };
    let any_present = crate::common::any_column_present(container, |field| {
        let column = column_var(field);
        quote!(!#p::OptionalIter::is_absent(&#column))
    });
    let crate::common::RowMatch { pull, record } = crate::common::row_match(
        container,
        |field| {
            let column = column_var(field);
            quote!(#column)
        },
        |inits| {
            quote! {
                __rows.push(Self { #inits }).map_err(#p::de_error::<__A::Error>)?;
                continue '__rows;
            }
        },
    );
    let optional_iters = container.optional().map(|field| {
        let column = column_var(field);
        quote!(let mut #column = #p::OptionalIter::new(#column);)
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::DecodeRows<#de> for #ident #ty_generics #where_clause {
            // With no column, the row is built before the first statement after `pull`.
            #[allow(unreachable_code, unused_mut, unused_variables)]
            fn decode_rows<__A: #p::serde::de::SeqAccess<#de>>(
                __columns: &mut #p::ColumnsReader<#de, __A>,
            ) -> #p::StdResult<#p::Vec<Self>, __A::Error> {
                #(#required)*
                #(#optional_slots)*
                #optionals
                #(#optional_iters)*
                let mut __rows = __columns.rows::<Self>();
                // With no column present, absent optional columns yield defaults forever:
                // a map gets one default row per key, a vec none.
                let __defaults_only = !(#any_present);
                let __keys = __columns.expected_len().unwrap_or(0);
                {
                    '__rows: loop {
                        if __defaults_only && __rows.len() >= __keys {
                            break;
                        }
                        let (__k, __o): (::core::primitive::usize, #p::Option<#p::Result<()>>) = #pull;
                        let mut __step = #p::RowStep::default();
                        #record
                        if let #p::Option::Some(__err) = __step.outcome() {
                            return #p::StdResult::Err(#p::de_error::<__A::Error>(__err));
                        }
                        break;
                    }
                }
                __rows.finish().map_err(#p::de_error::<__A::Error>)
            }
        }
    }
}

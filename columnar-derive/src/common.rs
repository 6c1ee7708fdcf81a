//! Pieces shared by the code generators: strategy paths, bounds, lifetimes.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{GenericArgument, Generics, Ident, Lifetime, PathArguments, Type};

use crate::internals::ast::{Container, Field};
use crate::internals::attr::{Class, Strategy};

/// The path of the runtime module every generated item goes through: `krate` is the
/// library's path as the user's crate knows it ([`Container::krate`]).
pub fn private(krate: &syn::Path) -> TokenStream {
    quote!(#krate::__private)
}

/// [`private`] with the span of a field's type, for code whose trait-bound errors must point
/// at that field: a path mixing the macro's span and the field's is reported at the macro.
pub fn private_at(krate: &syn::Path, span: Span) -> TokenStream {
    let mut root = krate.clone();
    for segment in &mut root.segments {
        segment.ident.set_span(span);
    }
    if let Some(colon) = &mut root.leading_colon {
        colon.spans = [span, span];
    }
    quote_spanned!(span=> #root::__private)
}

/// The lifetime generated iterators borrow the input for.
pub fn iter_lifetime() -> Lifetime {
    Lifetime::new("'__iter", Span::call_site())
}

/// The lifetime of serde's `Deserialize<'de>`.
pub fn de_lifetime() -> Lifetime {
    Lifetime::new("'de", Span::call_site())
}

/// The row type inside a container type: the last type argument (`Vec<Row>` → `Row`), and
/// for maps the one before (`BTreeMap<K, Row>` → `K`).
pub fn container_args(ty: &Type) -> (Option<Type>, Option<Type>) {
    let Type::Path(path) = ty else {
        return (None, None);
    };
    let Some(last) = path.path.segments.last() else {
        return (None, None);
    };
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return (None, None);
    };
    let types: Vec<&Type> = args
        .args
        .iter()
        .filter_map(|arg| match arg {
            GenericArgument::Type(ty) => Some(ty),
            _ => None,
        })
        .collect();
    let row = types.last().map(|ty| (*ty).clone());
    let key = types.len().checked_sub(2).map(|at| types[at].clone());
    (key, row)
}

fn infer_or(ty: Option<Type>) -> TokenStream {
    match ty {
        Some(ty) => quote!(#ty),
        None => quote!(_),
    }
}

/// Whether the type is `Cow<_, str>` or `Cow<_, [u8]>`, which `borrow` decodes without copying.
pub fn is_borrowable_cow(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    if last.ident != "Cow" {
        return false;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    args.args.iter().any(|arg| match arg {
        GenericArgument::Type(Type::Path(inner)) => inner.path.is_ident("str"),
        GenericArgument::Type(Type::Slice(slice)) => {
            matches!(&*slice.elem, Type::Path(inner) if inner.path.is_ident("u8"))
        }
        _ => false,
    })
}

/// The strategy marker type of a field inside a row.
pub fn row_strategy(krate: &syn::Path, field: &Field) -> TokenStream {
    let span = field.ty.span();
    let p = private_at(krate, span);
    let base = match (field.class(), field.strategy()) {
        (Some(Class::Vec), _) => {
            let row = infer_or(container_args(&field.ty).1);
            return quote_spanned!(span=> #p::VecClass<#row>);
        }
        (Some(Class::Map), _) => {
            let (key, row) = container_args(&field.ty);
            let (key, row) = (infer_or(key), infer_or(row));
            return quote_spanned!(span=> #p::MapClass<#key, #row>);
        }
        (None, None) => quote_spanned!(span=> #p::Generic),
        (None, Some(Strategy::Rle)) => quote_spanned!(span=> #p::Rle),
        (None, Some(Strategy::DeltaRle)) => quote_spanned!(span=> #p::DeltaRle),
        (None, Some(Strategy::BoolRle)) => quote_spanned!(span=> #p::BoolRle),
        (None, Some(Strategy::DeltaOfDelta)) => quote_spanned!(span=> #p::DeltaOfDelta),
    };
    if field.borrows() && is_borrowable_cow(&field.ty) {
        quote_spanned!(span=> #p::Borrow<#base>)
    } else {
        base
    }
}

/// The decoding wrapper of a table field (`Plain`, `Borrowed`, a container, a row iterator).
pub fn table_wrapper(
    krate: &syn::Path,
    field: &Field,
    ty: &Type,
    iter_rows: Option<&Type>,
) -> TokenStream {
    let span = ty.span();
    let p = private_at(krate, span);
    if let Some(iter) = iter_rows {
        return quote_spanned!(span=> #p::IterContainer<#iter>);
    }
    match field.class() {
        Some(Class::Vec) => {
            let row = infer_or(container_args(ty).1);
            quote_spanned!(span=> #p::VecContainerDe<#row, #ty>)
        }
        Some(Class::Map) => {
            let (key, row) = container_args(ty);
            let (key, row) = (infer_or(key), infer_or(row));
            quote_spanned!(span=> #p::MapContainerDe<#key, #row, #ty>)
        }
        None if field.borrows() && is_borrowable_cow(ty) => {
            quote_spanned!(span=> #p::Borrowed<#ty>)
        }
        None => quote_spanned!(span=> #p::Plain<#ty>),
    }
}

/// Whether `ty` mentions one of the struct's type parameters.
pub fn mentions_type_param(generics: &Generics, ty: &Type) -> bool {
    let params: Vec<&Ident> = generics.type_params().map(|param| &param.ident).collect();
    if params.is_empty() {
        return false;
    }
    struct Finder<'a> {
        params: &'a [&'a Ident],
        found: bool,
    }
    impl Visit<'_> for Finder<'_> {
        fn visit_path(&mut self, path: &syn::Path) {
            if let Some(first) = path.segments.first() {
                if self.params.iter().any(|param| first.ident == **param) {
                    self.found = true;
                }
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut finder = Finder {
        params: &params,
        found: false,
    };
    finder.visit_type(ty);
    finder.found
}

/// Replaces every lifetime parameter of the struct in `ty` by `to`.
pub fn replace_lifetimes(generics: &Generics, ty: &Type, to: &Lifetime) -> Type {
    struct Replace<'a> {
        from: Vec<&'a Lifetime>,
        to: &'a Lifetime,
    }
    impl VisitMut for Replace<'_> {
        fn visit_lifetime_mut(&mut self, lifetime: &mut Lifetime) {
            if self.from.contains(&&*lifetime) {
                *lifetime = self.to.clone();
            }
        }
    }
    let mut ty = ty.clone();
    Replace {
        from: generics.lifetimes().map(|param| &param.lifetime).collect(),
        to,
    }
    .visit_type_mut(&mut ty);
    ty
}

/// `generics` with `lifetime` added first, outliving every lifetime of the struct.
pub fn with_de_lifetime(generics: &Generics, lifetime: &Lifetime) -> Generics {
    let mut generics = generics.clone();
    let bounds: Vec<Lifetime> = generics
        .lifetimes()
        .map(|param| param.lifetime.clone())
        .collect();
    let mut param = syn::LifetimeParam::new(lifetime.clone());
    param.bounds.extend(bounds);
    generics
        .params
        .insert(0, syn::GenericParam::Lifetime(param));
    generics
}

/// Adds `predicates` to the where clause of `generics`.
pub fn with_predicates(generics: &Generics, predicates: Vec<TokenStream>) -> Generics {
    let mut generics = generics.clone();
    let clause = generics.make_where_clause();
    for predicate in predicates {
        clause.predicates.push(syn::parse_quote!(#predicate));
    }
    generics
}

/// The name of the local variable holding a field's column or value.
pub fn local(field: &Field) -> Ident {
    use syn::ext::IdentExt;
    quote::format_ident!("__field_{}", field.ident.unraw())
}

/// `Iterable{Row}` with `'__iter` first and the row's own lifetimes replaced by `'__iter`.
pub fn iterable_type(row: &Type) -> Option<Type> {
    let mut row = row.clone();
    let Type::Path(path) = &mut row else {
        return None;
    };
    let last = path.path.segments.last_mut()?;
    last.ident = quote::format_ident!("Iterable{}", last.ident);
    let iter = iter_lifetime();
    let mut args = match std::mem::replace(&mut last.arguments, PathArguments::None) {
        PathArguments::AngleBracketed(args) => args,
        PathArguments::None => syn::parse_quote!(<>),
        PathArguments::Parenthesized(_) => return None,
    };
    // `Iterable{Row}` has `'__iter` in place of all of the row's lifetimes.
    args.args = std::iter::once(GenericArgument::Lifetime(iter))
        .chain(
            args.args
                .into_iter()
                .filter(|arg| !matches!(arg, GenericArgument::Lifetime(_))),
        )
        .collect();
    last.arguments = PathArguments::AngleBracketed(args);
    Some(row)
}

/// The container's type parameters as arguments (`T, U`), for generated types.
pub fn type_param_args(container: &Container) -> Vec<Ident> {
    container
        .generics
        .type_params()
        .map(|param| param.ident.clone())
        .collect()
}

/// The code that assembles one row from one value of each column, column by column: the
/// common case (every column yields a value) builds the row; the first column that does not
/// stops the row, and `RowStep` sorts out what every column yielded.
pub struct RowMatch {
    /// A block that pulls one value from each column in order and, when all yield one, runs
    /// the caller's `on_row` (which must leave the block: `return`, `continue`); otherwise it
    /// evaluates to `(__k, __o)`: the first column without a value and what it yielded.
    pub pull: TokenStream,
    /// Statements recording every column into `__step` after `pull` stopped at `__k`: the
    /// columns before it yielded values, column `__k` yielded `__o`, the ones after it are
    /// pulled once more, in column order.
    pub record: TokenStream,
}

/// Builds the [`RowMatch`] of `container`, with `column(field)` naming a field's decoder and
/// `on_row(inits)` the statement run with the row's field initializers.
pub fn row_match(
    container: &Container,
    column: impl Fn(&Field) -> TokenStream,
    on_row: impl FnOnce(TokenStream) -> TokenStream,
) -> RowMatch {
    let mut pulls = Vec::new();
    let mut record = Vec::new();
    for (index, field) in container.written().enumerate() {
        let col = column(field);
        let var = local(field);
        // Spanned at the field, so a strategy the type cannot take is reported there.
        let at = field.ty.span();
        let p = private_at(&container.krate, at);
        let (next, absent, start) = if field.is_optional() {
            (
                quote_spanned!(at=> #p::OptionalIter::next_value(&mut #col)),
                quote!(#p::OptionalIter::is_absent(&#col)),
                quote!(#p::OptionalIter::column_start(&#col)),
            )
        } else {
            (
                quote_spanned!(at=> #p::Iterator::next(&mut #col)),
                quote!(false),
                quote!(#p::ColumnIter::column_start(&#col)),
            )
        };
        pulls.push(quote! {
            let #var = match #next {
                #p::Option::Some(#p::StdResult::Ok(__value)) => __value,
                __other => break '__row (
                    #index,
                    #p::Option::map(__other, |__r| #p::StdResult::map(__r, |_| ())),
                ),
            };
        });
        record.push(quote! {
            if #index < __k {
                __step.record(#p::Option::Some(#p::StdResult::Ok(())), #absent, #start);
            } else if #index == __k {
                __step.record(#p::Option::flatten(__o.take()), #absent, #start);
            } else {
                __step.record(#next, #absent, #start);
            }
        });
    }
    let inits = container.fields.iter().map(|field| {
        let name = &field.ident;
        if field.is_skipped() {
            let p = private_at(&container.krate, field.ty.span());
            quote_spanned!(field.ty.span()=> #name: #p::Default::default())
        } else {
            let var = local(field);
            quote!(#name: #var)
        }
    });
    let on_row = on_row(quote!(#(#inits),*));
    let p = private(&container.krate);
    RowMatch {
        pull: quote! {
            '__row: {
                #(#pulls)*
                #on_row
            }
        },
        record: quote! {
            let mut __o = #p::Option::Some(__o);
            #(#record)*
        },
    }
}

/// An expression: whether any column of the container is present (required columns always
/// are), given `present(field)`, the expression saying whether an optional column is.
pub fn any_column_present(
    container: &Container,
    present: impl Fn(&Field) -> TokenStream,
) -> TokenStream {
    if container.required().next().is_some() {
        return quote!(true);
    }
    let present = container.optional().map(present);
    quote!(false #(|| #present)*)
}

/// For a field whose type names no type parameter, the element bound of its strategy
/// (`DeltaRleable`, `DeltaOfDeltable`, `BoolRleable`), spanned at the field's type. Put in the where clause
/// of every generated impl, a type the strategy cannot take is reported once, there (the
/// identical reports of each impl are merged by rustc), instead of once per use inside the
/// bodies with notes naming internal paths.
pub fn element_bound(container: &Container, field: &Field) -> Option<TokenStream> {
    element_bound_of(container, field, &field.ty)
}

/// [`element_bound`] with the field's type written as `ty` (e.g. with its lifetimes renamed).
pub fn element_bound_of(container: &Container, field: &Field, ty: &Type) -> Option<TokenStream> {
    if field.is_skipped() || field.borrows() || mentions_type_param(&container.generics, &field.ty)
    {
        return None;
    }
    let span = ty.span();
    let p = private_at(&container.krate, span);
    match (field.class(), field.strategy()) {
        (None, Some(Strategy::DeltaRle)) => Some(quote_spanned!(span=> #ty: #p::DeltaRleable)),
        (None, Some(Strategy::DeltaOfDelta)) => {
            Some(quote_spanned!(span=> #ty: #p::DeltaOfDeltable))
        }
        (None, Some(Strategy::BoolRle)) => Some(quote_spanned!(span=> #ty: #p::BoolRleable)),
        _ => None,
    }
}

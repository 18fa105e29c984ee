//! Product calls: segments, categories, product detail, documents, in-depth page, components.

use axum::extract::State;
use projections::{on_db, Db};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::{IntoParams, ToSchema};

use super::{raw, DocumentItem, FilterOption, RawJson};
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};
use crate::ids::{CategoryId, ComponentId, ProductId, SegmentId};

/// Categories of the segment named 'Shoulder' shown as a first group (spec 2.17, 9).
pub const SHOULDER_FIRST_CATEGORIES: [i64; 2] = [37, 42];
pub const SHOULDER_SEGMENT_NAME: &str = "Shoulder";

/// A segment tile (home carousel, /products).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SegmentTile {
    pub id: i64,
    /// Always `segment`.
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub preview: String,
    pub red_label: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct SegmentList {
    /// The product segments, in catalogue order.
    #[schema(value_type = Vec<SegmentTile>)]
    pub categories: Box<RawValue>,
}

/// The catalogue documents under the /products tiles.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Catalogues {
    pub title: String,
    pub documents: Vec<DocumentItem>,
}

#[derive(Serialize, ToSchema)]
pub struct ProductsOverview {
    #[schema(value_type = Vec<SegmentTile>)]
    pub categories: Box<RawValue>,
    #[schema(value_type = Catalogues)]
    pub catalogues: Box<RawValue>,
}

/// An entry of a segment or category list: a category (goes to /products/category/{id}) or a
/// product (goes to /products/detail/{id}).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ListItem {
    pub id: i64,
    /// `category` or `product`.
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub preview: String,
    pub red_label: Option<String>,
    /// For products: the subcategory label, else the category name.
    pub category: Option<String>,
}

/// One group of a segment page. The 'Shoulder' segment has two (categories 37 and 42 first).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SegmentGroup {
    pub list: Vec<ListItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SegmentPage {
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub preview: String,
    pub red_label: Option<String>,
    /// Every entry, first group first.
    pub list: Vec<ListItem>,
    /// True for the 'Shoulder' segment: `groups` holds its two groups.
    pub grouped: bool,
    pub groups: Vec<SegmentGroup>,
    /// The '#ThinkClinical' documents.
    pub thinkclinical: Vec<DocumentItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CategoryFilters {
    pub order: Vec<FilterOption>,
    pub subcategory: Vec<FilterOption>,
}

/// What the import stores for a category page; the list is added per request.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CategoryBase {
    pub id: i64,
    pub category_name: String,
    pub preview: String,
    pub red_label: Option<String>,
    pub parent_id: i64,
    pub parent_first_level: bool,
    pub filters: CategoryFilters,
    /// Sub-categories listed before the products.
    pub categories: Vec<ListItem>,
}

#[derive(Serialize, ToSchema)]
pub struct CategoryPage {
    pub id: i64,
    pub category_name: String,
    pub preview: String,
    /// Shown as a warning above the title.
    pub red_label: Option<String>,
    pub parent_id: i64,
    /// True when the parent is a segment.
    pub parent_first_level: bool,
    pub filters: CategoryFilters,
    /// The applied order and subcategory.
    pub order: String,
    pub subcategory: Option<String>,
    pub list: Vec<ListItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Video {
    pub preview: String,
    pub label: String,
    pub url: Option<String>,
    pub code: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Banner {
    pub title: String,
    pub description: String,
    pub link: String,
    pub banner: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RelatedProduct {
    pub id: i64,
    pub name: String,
    pub image: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RelatedProducts {
    pub products: Vec<RelatedProduct>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InDepthLink {
    /// The section path (tab) of the in-depth page.
    pub path: String,
    pub anchor: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InDepthCarouselItem {
    pub image: String,
    pub title: String,
    pub link: InDepthLink,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InDepthCarousel {
    pub title: String,
    pub items: Vec<InDepthCarouselItem>,
}

/// Present (an object) when the product has an in-depth page.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InDepthSummary {
    pub carousel: Option<InDepthCarousel>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ProductDetails {
    pub id: i64,
    pub name: String,
    pub parent_id: i64,
    pub parent_first_level: bool,
    pub parent_name: String,
    pub preview: String,
    /// Sanitised HTML, empty paragraphs removed.
    pub description: String,
    pub images: Vec<String>,
    pub videos: Vec<Video>,
    pub benefits: Vec<String>,
    /// Sanitised HTML.
    pub disclaimers: String,
    pub banner: Option<Banner>,
    #[serde(rename = "relatedProducts")]
    pub related_products: RelatedProducts,
    #[serde(rename = "inDepth")]
    pub in_depth: Option<InDepthSummary>,
    pub has_attachments: bool,
    pub has_components: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AttachmentGroup {
    pub name: String,
    pub files: Vec<DocumentItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ProductAttachments {
    pub id: i64,
    pub name: String,
    pub parent_id: i64,
    pub parent_first_level: bool,
    pub attachments: Vec<AttachmentGroup>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SectionContent {
    pub image: String,
    pub title: String,
    #[serde(rename = "mainText")]
    pub main_text: String,
    #[serde(rename = "subText")]
    pub sub_text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Feature {
    pub anchor: String,
    pub title: String,
    pub image: String,
    pub description: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InDepthSection {
    pub label: String,
    pub path: String,
    pub content: SectionContent,
    pub features: Vec<Feature>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InDepthPage {
    /// The product.
    pub id: i64,
    pub name: String,
    pub title: String,
    /// As in the content; the app orders the tabs (info, details, hotel, day, activities,
    /// download, contacts, then the others).
    pub sections: Vec<InDepthSection>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ComponentItem {
    pub id: i64,
    pub title: String,
    pub preview: Option<String>,
    pub material: String,
    pub sterile: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ProductComponents {
    pub id: i64,
    pub name: String,
    pub list: Vec<ComponentItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GalleryImage {
    pub big: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Variant {
    pub size: String,
    pub code: String,
    /// Shown with the red 'upon request' marker.
    pub upon_request: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VariantGroup {
    pub title: String,
    pub variants: Vec<Variant>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ComponentDetails {
    pub id: i64,
    pub title: String,
    pub parent_id: i64,
    pub parent_name: String,
    pub gallery: Vec<GalleryImage>,
    pub material: String,
    pub sterile: bool,
    pub notes: String,
    pub variants: Vec<VariantGroup>,
}

// ---------------------------------------------------------------------------------------------

/// The segment tiles as a JSON array.
pub(crate) async fn segment_tiles(db: &Db) -> AppResult<Box<RawValue>> {
    let items: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select item from catalogue_segments order by position, id")
        .fetch_all(pool).await)?;
    raw(format!("[{}]", items.join(",")))
}

async fn meta(db: &Db, key: &str) -> AppResult<Option<String>> {
    Ok(on_db!(&db, pool => sqlx::query_scalar(
        "select data from catalogue_meta where key = $1")
        .bind(key).fetch_optional(pool).await)?)
}

/// The product segments (home carousel).
#[utoipa::path(get, path = "/products/categories", tag = "products", security(("bearer" = [])),
    responses((status = 200, body = SegmentList), (status = 401, body = ErrorBody)))]
pub async fn categories(State(db): State<Db>, _auth: AuthUser) -> AppResult<AppJson<SegmentList>> {
    Ok(AppJson(SegmentList {
        categories: segment_tiles(&db).await?,
    }))
}

/// The /products screen: segment tiles and the catalogue documents.
#[utoipa::path(get, path = "/products", tag = "products", security(("bearer" = [])),
    responses((status = 200, body = ProductsOverview), (status = 401, body = ErrorBody)))]
pub async fn overview(
    State(db): State<Db>,
    State(library): State<std::sync::Arc<crate::library::Library>>,
    _auth: AuthUser,
) -> AppResult<AppJson<ProductsOverview>> {
    let catalogues = meta(&db, "products.catalogues")
        .await?
        .unwrap_or_else(|| r#"{"title":"Catalogues","documents":[]}"#.to_string());
    let catalogues = library.filter_list_json(catalogues, None).await?;
    Ok(AppJson(ProductsOverview {
        categories: segment_tiles(&db).await?,
        catalogues: raw(catalogues)?,
    }))
}

/// A segment page: its categories and products (the 'Shoulder' segment in two groups) and its
/// '#ThinkClinical' documents.
#[utoipa::path(get, path = "/products/segment/{id}", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Segment id")),
    responses((status = 200, body = SegmentPage), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn segment(
    State(db): State<Db>,
    State(library): State<std::sync::Arc<crate::library::Library>>,
    _auth: AuthUser,
    SegmentId(id): SegmentId,
) -> AppResult<RawJson> {
    let page: Option<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select page from catalogue_segments where id = $1")
        .bind(id).fetch_optional(pool).await)?;
    let page = page.ok_or_else(|| AppError::not_found("Segment not found"))?;
    Ok(RawJson(library.filter_list_json(page, None).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CategoryQuery {
    /// One of the `filters.order` values (default `featured`).
    pub order: Option<String>,
    /// One of the `filters.subcategory` values; empty means all.
    pub subcategory: Option<String>,
}

/// SQL `order by` of each product order value.
fn order_sql(order: &str) -> Option<&'static str> {
    Some(match order {
        "featured" => "sort_order, name, id",
        "az" => "lower(name), id",
        "za" => "lower(name) desc, id",
        "newest" => "release_date desc, id",
        "oldest" => "release_date, id",
        _ => return None,
    })
}

/// A category page with its 'order' and 'subcategory' filters.
#[utoipa::path(get, path = "/products/category/{id}", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Category id"), CategoryQuery),
    responses((status = 200, body = CategoryPage), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn category(
    State(db): State<Db>,
    _auth: AuthUser,
    CategoryId(id): CategoryId,
    AppQuery(query): AppQuery<CategoryQuery>,
) -> AppResult<AppJson<CategoryPage>> {
    let page: Option<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select page from catalogue_categories where id = $1")
        .bind(id).fetch_optional(pool).await)?;
    let page = page.ok_or_else(|| AppError::not_found("Category not found"))?;
    let base: CategoryBase = serde_json::from_str(&page)
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored category")))?;

    let order = query
        .order
        .filter(|o| !o.is_empty())
        .unwrap_or_else(|| "featured".to_string());
    let order_by = base
        .filters
        .order
        .iter()
        .any(|o| o.query_value() == order)
        .then(|| order_sql(&order))
        .flatten()
        .ok_or_else(|| AppError::bad_request(format!("Unknown order '{order}'")))?;
    let subcategory = query.subcategory.filter(|s| !s.is_empty());
    if let Some(sub) = &subcategory {
        if !base
            .filters
            .subcategory
            .iter()
            .any(|o| &o.query_value() == sub)
        {
            return Err(AppError::bad_request(format!(
                "Unknown subcategory '{sub}' for this category"
            )));
        }
    }

    let sql = format!(
        "select item from catalogue_products where parent_id = $1 and ($2 = '' or subcategory = $2) order by {order_by}"
    );
    let items: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(&sql)
        .bind(id).bind(subcategory.clone().unwrap_or_default()).fetch_all(pool).await)?;
    let mut list = if subcategory.is_some() {
        Vec::new()
    } else {
        base.categories.clone()
    };
    for item in items {
        list.push(
            serde_json::from_str(&item)
                .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored product")))?,
        );
    }
    Ok(AppJson(CategoryPage {
        id: base.id,
        category_name: base.category_name,
        preview: base.preview,
        red_label: base.red_label,
        parent_id: base.parent_id,
        parent_first_level: base.parent_first_level,
        filters: base.filters,
        order,
        subcategory,
        list,
    }))
}

async fn product_column(
    db: &Db,
    ProductId(id): ProductId,
    column: &str,
) -> AppResult<Option<String>> {
    let sql = format!("select {column} from catalogue_products where id = $1");
    let value: Option<Option<String>> = on_db!(&db, pool => sqlx::query_scalar(&sql)
        .bind(id).fetch_optional(pool).await)?;
    match value {
        None => Err(AppError::not_found(ProductId::NOT_FOUND)),
        Some(v) => Ok(v),
    }
}

/// The product's Details tab.
#[utoipa::path(get, path = "/product/{id}/details", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Product id")),
    responses((status = 200, body = ProductDetails), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn details(State(db): State<Db>, _auth: AuthUser, id: ProductId) -> AppResult<RawJson> {
    let json = product_column(&db, id, "details").await?;
    json.map(RawJson)
        .ok_or_else(|| AppError::not_found(ProductId::NOT_FOUND))
}

/// The product's Documents tab.
#[utoipa::path(get, path = "/product/{id}/attachments", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Product id")),
    responses((status = 200, body = ProductAttachments), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn attachments(
    State(db): State<Db>,
    State(library): State<std::sync::Arc<crate::library::Library>>,
    _auth: AuthUser,
    id: ProductId,
) -> AppResult<RawJson> {
    let json = product_column(&db, id, "attachments").await?;
    let json = json.ok_or_else(|| AppError::not_found(ProductId::NOT_FOUND))?;
    Ok(RawJson(library.filter_list_json(json, Some(id.0)).await?))
}

/// The product's in-depth page; 404 when the product has none.
#[utoipa::path(get, path = "/product/{id}/indepth", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Product id")),
    responses((status = 200, body = InDepthPage), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn indepth(State(db): State<Db>, _auth: AuthUser, id: ProductId) -> AppResult<RawJson> {
    let json = product_column(&db, id, "indepth").await?;
    json.map(RawJson)
        .ok_or_else(|| AppError::not_found("This product has no in-depth page"))
}

/// The product's components.
#[utoipa::path(get, path = "/product/{id}/components", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Product id")),
    responses((status = 200, body = ProductComponents), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn components(
    State(db): State<Db>,
    _auth: AuthUser,
    id: ProductId,
) -> AppResult<RawJson> {
    let json = product_column(&db, id, "components").await?;
    json.map(RawJson)
        .ok_or_else(|| AppError::not_found(ProductId::NOT_FOUND))
}

/// A component's detail.
#[utoipa::path(get, path = "/component/{id}", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Component id")),
    responses((status = 200, body = ComponentDetails), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn component(
    State(db): State<Db>,
    _auth: AuthUser,
    ComponentId(id): ComponentId,
) -> AppResult<RawJson> {
    let json: Option<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select details from catalogue_components where id = $1")
        .bind(id).fetch_optional(pool).await)?;
    json.map(RawJson)
        .ok_or_else(|| AppError::not_found("Component not found"))
}

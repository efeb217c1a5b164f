//! WebRTC signalling for the stream: placeholder until the data channel lands.
use axum::Router;

pub fn routes() -> Router {
    Router::new()
}
